/**
 * What a SIGKILLed bulk run leaves in the temporary folder (its verdicts, its copy of stdin: 54 MB for a 500k-row
 * file) was removed only by a later run that sends; a nightly `--dry-run` or `stock validate` before each push kept it
 * (a user test). Both remove it now, and leave a live process's alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** A killed run's copy of stdin and verdicts, and a live one's (this process), in the temporary folder. */
function leftBehind(): { killed: string[]; live: string } {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
  const killed = [join(tmpdir(), `b2bctl-stdin-${dead}-a1`), join(tmpdir(), `b2bctl-verdicts-${dead}-b2`)];
  for (const folder of killed) {
    mkdirSync(folder);
    writeFileSync(join(folder, 'stdin'), 'sku;quantity\r\nA1;5\r\n');
  }
  const live = join(tmpdir(), `b2bctl-stdin-${process.pid}-c3`);
  mkdirSync(live);
  return { killed, live };
}

describe("a killed run's temporary copies", () => {
  it.each([
    ['stock push --dry-run', ['stock', 'push', 'stock.csv', '--dry-run']],
    ['stock validate', ['stock', 'validate', 'stock.csv']],
  ])('%s removes them, sends nothing, exit 0', async (_name, args) => {
    const { killed, live } = leftBehind();
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'stock.csv'), 'sku;quantity\r\nA1;5\r\n');
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    try {
      const result = await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
      expect(result.code).toBe(0);
      expect(platform.received).toEqual([]);
      for (const path of killed) expect(existsSync(path)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      for (const path of [...killed, live]) rmSync(path, { recursive: true, force: true });
    }
  });
});

/**
 * `config list` on a terminal of 60 and 80 columns, checked on the rendered screen: no row wraps, every key whole,
 * a value too long for what is left cut with … (`config get KEY` shows it whole).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { everySetting } from '../../../src/config/settings.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

describe('config list on a terminal', () => {
  for (const columns of [80, 60]) {
    it(`at ${columns} columns: one screen line per setting, its key whole, a long value cut with …`, async () => {
      const result = await runCommandLine(['config', 'list'], {
        configDir: freshConfigDir(),
        tty: { stdout: true, stderr: true },
        columns,
      });
      expect(result.code).toBe(0);
      expect(await wrappedLineCount(result.stdout, columns)).toBe(0);
      const screen = await renderedScreen(result.stdout, columns, 200);
      expect(screen[0]).toMatch(/^KEY\s+VALUE\s+SOURCE$/);
      expect(screen.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(everySetting.map((setting) => setting.key));
      const statusPath = screen.find((line) => line.startsWith('paths.customerStatus '));
      expect(statusPath).toMatch(/^paths\.customerStatus\s+\/v1\/customer\/\S*…\s+default$/);
    });
  }

  it('piped as a table, a long value stays whole', async () => {
    const result = await runCommandLine(['config', 'list', '-o', 'table'], { configDir: freshConfigDir() });
    expect(result.stdout).toMatch(/\n(paths\.\w+)\s+\/v1\/customer\/updateStatus\/:document\/:active\s+default\n/);
  });
});

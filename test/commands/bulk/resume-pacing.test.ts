/**
 * Every flag that shapes a bulk run survives into its printed resume line, and a resume that gives none of them
 * runs with them: an interrupted `--rate 40` run must not resume at full speed, nor a `--map` one unreadable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDefaults, type SandboxOptions } from '../../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine } from '../../support/command-line.js';
import { fetchToken, seedDirectory } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const options: SandboxOptions = { ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory };
let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox(options);
  env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: await fetchToken(sandbox) };
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

const shapingFlags = [
  ['--map', 'map.json'],
  ['--delimiter', '|'],
  ['--encoding', 'windows-1252'],
  ['--decimal', ','],
  ['--rate', '40'],
  ['--concurrency', '3'],
  ['--retries', '1'],
  ['--timeout', '150'],
  ['--batch-size', '7'],
  ['--route', 'batch'],
] as const;

/** An ERP export that only reads right with every input flag above: its own headers, `|`, Windows-1252, `12,50`. */
function erpExport(folder: string): void {
  const rows = Array.from({ length: 30 }, (_, index) => `GEN-${String(index + 1).padStart(7, '0')}|${index}|12,50`);
  writeFileSync(join(folder, 'estoque.csv'), iconv.encode(['Código|Qtd|Preço', ...rows, ''].join('\r\n'), 'win1252'));
  writeFileSync(join(folder, 'map.json'), JSON.stringify({ Código: 'sku', Qtd: 'quantity', Preço: 'price' }));
}

describe('a stock push resumed with none of its flags', () => {
  it('runs with every one of them: the resume line names each, and the resumed runs show each at work', async () => {
    const folder = temporaryFolder('b2bctl-resume-pacing-');
    erpExport(folder);
    const configDir = join(folder, 'config');
    const run = (args: readonly string[]) => runCommandLine(args, { configDir, cwd: folder, env });

    // The store answers 503 to everything: the run stops after three batches, with the line to resume it.
    options.failRate = 1;
    const first = await run(['stock', 'push', 'estoque.csv', ...shapingFlags.flat()]);
    expect(first.code).toBe(69);
    // A 503 slower than the 150 ms time-out on a loaded machine stops the run for time-outs: the same command, worded
    // for a slow platform.
    const resumeWords = /(when the platform is back, run|run again with a longer --timeout): (.*b2bctl .*)$/m.exec(
      first.stderr,
    );
    const resumeLine = resumeWords?.[2] ?? '';
    // Stopped by time-outs, the command carries a longer one (the default, 30 s) than the 150 ms that ran out.
    const timeout = resumeWords?.[1] === 'when the platform is back, run' ? '150' : '30s';
    const report = /--resume (\S+)$/.exec(resumeLine)?.[1] ?? '';
    expect(report).toMatch(/^estoque\.report-\d{8}-\d{6}\.csv$/);
    expect(resumeLine).toBe(
      `B2BCTL_CONFIG_DIR=${configDir} b2bctl stock push estoque.csv --profile default --base-url ${env.B2BCTL_BASE_URL} --map ${join(folder, 'map.json')} --delimiter '|' --encoding windows-1252 --decimal , --rate 40 --concurrency 3 --retries 1 --timeout ${timeout} --route batch --batch-size 7 --resume ${report}`,
    );

    // Resumed bare, still down: read with the map, delimiter, encoding and decimal (or every row would be
    // invalid, exit 65), sent at the recorded pace and batch size, each failed request retried once (not 3 times).
    const stillDown = await run(['stock', 'push', 'estoque.csv', '--resume', report]);
    expect(stillDown.stderr).toContain('stock push: 30 records, 30 valid, 0 invalid');
    expect(stillDown.stderr).toContain(
      'stock push: sending 30 items (0 already done by the resumed run) in up to 5 requests of up to 7 items through the batch route (concurrency 3, at most 40 requests/s)',
    );
    const counts = /stock push: \d+ unknown(?:, \d+ not sent)?; (\d+) requests, (\d+) retries, /.exec(stillDown.stderr);
    // Every request tried twice: --retries 1 (the default, 3, would try each four times).
    expect(Number(counts?.[1])).toBe(2 * Number(counts?.[2]));
    expect(Number(counts?.[2])).toBeGreaterThanOrEqual(3);
    expect(stillDown.code).toBe(69);

    // Given again, a pacing flag wins, even at its default's value: --concurrency 8 is a choice, not "not given".
    const faster = await run(['stock', 'push', 'estoque.csv', '--resume', report, '--concurrency', '8']);
    expect(faster.stderr).toContain('through the batch route (concurrency 8, at most 40 requests/s)');

    // Resumed bare, up but slow: the recorded 150 ms time-out, not the default 30 s, gives up on every answer.
    options.failRate = 0;
    options.latencyMs = 400;
    const slow = await run(['stock', 'push', 'estoque.csv', '--resume', report]);
    options.latencyMs = 0;
    expect(slow.stderr).toMatch(
      /error: PUT http:\/\/127\.0\.0\.1:\d+\/v1\/stock\/batch was sent, and 127\.0\.0\.1:\d+ did not answer within the 0\.15 s time-out \(timed out\), after 2 attempts/,
    );
    expect(slow.code).toBe(69);
  });
});

/**
 * A bulk run a second Ctrl-C (or SIGTERM) stops at once, its requests in flight never answered (a fresh user test):
 * its closing line said `500 not sent` under a line saying 2 requests may have been applied (the platform had applied
 * them), and with `-o json` stdout stayed empty, the one case where a script most needs the summary. The records of a
 * request written and unanswered are `unknown`, in the closing line and the summary written before it; those of a
 * request not written yet (here all waiting for a token the platform never gave) are `not sent`.
 */
import type { ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';

const platform = useScriptedPlatform();
/** Answers the platform holds back, to be sent once the test has stopped the run. */
const held: ServerResponse[] = [];

const unavailable = (_request: unknown, _body: string, response: ServerResponse) => response.writeHead(503).end();

/** Lets the run end: every request held, and every one to come, answered 503 at once. */
function release(): void {
  platform.routes['PUT /v1/stock/batch'] = unavailable;
  platform.routes['POST /v1/auth/token'] = unavailable;
  for (const response of held.splice(0)) response.writeHead(503).end();
}

afterEach(release);

/** A push of 500 items in batches of 50, two in flight; resolves once `arrived` holds, with the run going on. */
function startPush(output: 'json' | 'ndjson', env: Record<string, string>, arrived: () => boolean) {
  const folder = freshWorkDir();
  const rows = Array.from({ length: 500 }, (_, n) => `SKU-${n},${n % 40},${(n % 90) + 1}.50`);
  writeFileSync(join(folder, 'stock.csv'), `sku,quantity,price\n${rows.join('\n')}\n`);
  let test: TestContext | undefined;
  const told: { reached?: (test: TestContext) => void } = {};
  const ready = new Promise<TestContext>((resolve) => (told.reached = resolve));
  const hold = (_request: unknown, _body: string, response: ServerResponse) => {
    held.push(response);
    if (arrived() && test) told.reached?.(test);
  };
  platform.routes['PUT /v1/stock/batch'] = hold;
  platform.routes['POST /v1/auth/token'] = hold;
  const run = runCommandLine(
    ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '50', '--concurrency', '2', '-o', output],
    {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url, ...env },
      cwd: folder,
      clock: new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0)),
      started: (context) => (test = context),
    },
  );
  return { ready, run };
}

/**
 * The second signal: what the run said, on stdout and stderr, before its process would have ended (up to its closing
 * line and the line of its summary: the test's process goes on, and the run with it to its own end).
 */
async function stopAtOnce(test: TestContext, signal: 'SIGTERM' | 'SIGINT') {
  test.interrupt(signal);
  const stdoutBefore = test.stdout().length;
  const stderrBefore = test.stderr().length;
  const exitCode = signal === 'SIGTERM' ? 143 : 130;
  test.stopAtOnce(exitCode);
  // What was written reaches the memory streams' readers on the next turn.
  await nextTurn();
  const stdout = test.stdout().slice(stdoutBefore);
  const stderr = test.stderr().slice(stderrBefore);
  const closing = `; exit ${exitCode}\n`;
  return {
    stdout: stdout.slice(0, stdout.indexOf('\n') + 1),
    stderr: stderr.includes(closing) ? stderr.slice(0, stderr.indexOf(closing) + closing.length) : stderr,
  };
}

describe('stock push stopped at once by a second signal', () => {
  it.each([
    ['SIGTERM', 'json', 143],
    ['SIGINT', 'ndjson', 130],
  ] as const)(
    '%s twice with -o %s: the summary object, then the closing line, the 2 batches sent counted unknown',
    async (signal, output, exitCode) => {
      const batches = () => platform.received.filter((key) => key === 'PUT /v1/stock/batch').length;
      const { ready, run } = startPush(
        output,
        { B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
        () => batches() === 2,
      );
      const said = await stopAtOnce(await ready, signal);
      const outcomes = { unknown: 100, 'not sent': 400 };
      expect(
        said.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown),
      ).toEqual([
        { command: 'stock push', file: 'stock.csv', profile: 'default', baseUrl: platform.url, outcomes, exitCode },
      ]);
      expect(said.stderr).toContain(
        'stock push: stopped at once; 2 requests in flight may have been applied without their answers in the report (100 items, counted unknown; a resume sends them again). Resume with: ',
      );
      expect(said.stderr).toMatch(
        new RegExp(
          `stock push: stock\\.csv to profile "default" \\(\\S+\\): 100 unknown, 400 not sent; exit ${exitCode}\\n$`,
        ),
      );
      release();
      await run;
    },
  );

  it('no batch written yet (every one waiting for the token): nothing unknown, 500 not sent', async () => {
    const { ready, run } = startPush(
      'json',
      { B2BCTL_USERNAME: 'erp@example.com', B2BCTL_PASSWORD: 'a-password' },
      () => platform.received.includes('POST /v1/auth/token'),
    );
    const said = await stopAtOnce(await ready, 'SIGTERM');
    expect(JSON.parse(said.stdout)).toMatchObject({ outcomes: { 'not sent': 500 }, exitCode: 143 });
    expect(said.stderr).toContain('stock push: stopped at once; no request was waiting for its answer. Resume with: ');
    expect(said.stderr).toMatch(/: 500 not sent; exit 143\n$/);
    expect(platform.received).toEqual(['POST /v1/auth/token']);
    release();
    await run;
  });
});

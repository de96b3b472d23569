/**
 * A stock batch answered 200 whose body is cut short (a gateway timing out mid-answer): the platform received the
 * batch and most likely applied it. Every answer so cut, the items were "failed … Cannot reach … check the network"
 * and "not sent" (a fresh user test); they are `unknown` with the 200, which the resume sends again (a batch of
 * absolute values is safe to repeat). A batch whose repeat is answered whole is applied as answered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** Answers 200 and closes the connection after the first bytes of the body, as said by `framing`. */
const cutShort = (framing: string) => (request: { socket: { end: (text: string) => void } }) =>
  request.socket.end(
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n${framing}\r\n{"results":[{"sku":"A1"`,
  );

async function push() {
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\nB2,3,1.00\n');
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch'], {
    configDir: freshConfigDir(),
    env,
    cwd: folder,
    // The retries' waits (a bulk run's: seconds) are counted, not slept.
    clock: new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0)),
  });
  return { result, rows: readReport(join(folder, onlyReport(folder, 'stock'))) };
}

describe('stock push: a 200 cut short mid-body', () => {
  it.each([
    ['shorter than its Content-Length', 'Content-Length: 1000'],
    ['a chunked body without its end', 'Transfer-Encoding: chunked\r\n\r\n1b'],
  ])('%s every time: the items unknown with the 200, never "not sent"', async (_, framing) => {
    platform.routes['PUT /v1/stock/batch'] = cutShort(framing);
    const { result, rows } = await push();
    // undici hands on the status of a chunked answer before its break, not of one shorter than its Content-Length.
    expect(rows.map((row) => `${row.key} ${row.outcome}`)).toEqual(['A1 unknown', 'B2 unknown']);
    expect(rows[0]?.message).toMatch(
      /^PUT \S+\/v1\/stock\/batch answered( HTTP 200)?, but the connection closed before the answer's end \(.+\), after 4 attempts: the request may have been applied\./,
    );
    expect(result.stderr).toContain('stock push: 2 unknown;');
    expect(result.stderr).not.toContain('not sent');
    expect(result.stderr).not.toContain('Cannot reach');
    expect(platform.received).toEqual(Array.from({ length: 4 }, () => 'PUT /v1/stock/batch'));
  });

  it('once, then answered whole: applied, exit 0', async () => {
    let answers = 0;
    platform.routes['PUT /v1/stock/batch'] = (request, _body, response) => {
      if (answers++ === 0) return cutShort('Content-Length: 1000')(request);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    const { result, rows } = await push();
    expect(result.code).toBe(0);
    expect(rows.map((row) => `${row.key} ${row.outcome}`)).toEqual(['A1 accepted', 'B2 accepted']);
    expect(platform.received).toEqual(['PUT /v1/stock/batch', 'PUT /v1/stock/batch']);
  });
});

/**
 * The stock batch route answering 2xx in text that quotes the token (a gateway's "OK processed with session …"): what
 * the answer said is passed on in the warning and in each item's report row, and was passed on with the token in
 * clear (a user test), where the same text answered 4xx was masked. Every quote of an answer masks the request's
 * secrets, whatever its status.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readReport, warningLines } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const token = 'a-pre-issued-token-0123456789';

/** `stock push s.csv` (two items, the batch route) against a batch route answering 200 with `body` as `contentType`. */
async function pushAnswered(contentType: string, body: string) {
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': contentType }).end(body);
  const folder = freshWorkDir();
  writeFileSync(join(folder, 's.csv'), 'sku;quantity;price\nA1;5;10.00\nB2;7;11.50\n');
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token };
  const result = await runCommandLine(['stock', 'push', 's.csv'], { configDir: freshConfigDir(), env, cwd: folder });
  return { result, folder };
}

describe('stock push: a 2xx quoting the token', () => {
  it.each([
    ['text/plain', `OK processed with session ${token}`],
    ['application/json', JSON.stringify({ message: `OK processed with session ${token}` })],
  ])('%s: the warning and each report row quote it masked; the items accepted, exit 0', async (type, body) => {
    const { result, folder } = await pushAnswered(type, body);
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['PUT /v1/stock/batch']);
    expect(warningLines(result.stderr)).toEqual([
      expect.stringContaining(
        'warning: the stock batch route answered 2xx without a per-item result b2bctl recognises, saying "OK processed with session [redacted]";',
      ),
    ]);
    const message = 'the answer did not itemise this item; it said "OK processed with session [redacted]"';
    expect(readReport(join(folder, onlyReport(folder, 's')))).toEqual([
      expect.objectContaining({ key: 'A1', outcome: 'accepted', status: '200', message }),
      expect.objectContaining({ key: 'B2', outcome: 'accepted', status: '200', message }),
    ]);
    expect(result.stderr).not.toContain(token);
  });

  it('per-item results whose messages quote it: each report row masked', async () => {
    const results = ['A1', 'B2'].map((sku) => ({
      sku,
      status: 'ERROR',
      message: `session ${token} may not write ${sku}`,
    }));
    const { result, folder } = await pushAnswered('application/json', JSON.stringify({ results }));
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 's')))).toEqual([
      expect.objectContaining({ key: 'A1', outcome: 'rejected', message: 'session [redacted] may not write A1' }),
      expect.objectContaining({ key: 'B2', outcome: 'rejected', message: 'session [redacted] may not write B2' }),
    ]);
    expect(result.stderr).not.toContain(token);
  });
});

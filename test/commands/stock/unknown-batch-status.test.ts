/**
 * A 2xx answer that itemises nothing and states the whole batch's outcome in a status word b2bctl knows as neither
 * applied, refused nor pending (`REFUSED`, `DISCARDED`, `NEGADO`), or, on the queue route, a count of 0 items queued:
 * each was `queued` or `accepted`, exit 0, with nothing stored (a user test). Each item is `unknown` now, quoting the
 * word and the answer, exit 1, the errors file holding them to send again. An answer with no status at all, or a word
 * of taking the batch, stays `queued`/`accepted`, as documented.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyFile, onlyReport, readErrorsCsv, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const skus = ['A1', 'A2', 'A3'];
const routes = {
  queue: { route: 'POST /api/v1/stocks/batch', status: 202 },
  batch: { route: 'PUT /v1/stock/batch', status: 200 },
} as const;

/** `stock push stock.csv --route <route>` against that route answering its 2xx with `text`. */
async function pushAnswered(route: keyof typeof routes, text: string) {
  const { route: key, status } = routes[route];
  platform.routes[key] = (_request, _body, response) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(text);
  const folder = freshWorkDir();
  const rows = skus.map((sku, place) => `${sku},${place + 1},${place + 1}.00`);
  writeFileSync(join(folder, 'stock.csv'), ['sku,quantity,price', ...rows, ''].join('\n'));
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const args = ['stock', 'push', 'stock.csv', '--route', route];
  const result = await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
  return { result, folder };
}

const refusingWords = ['REFUSED', 'NOT_QUEUED', 'DENIED', 'DISCARDED', 'CANCELLED', 'NEGADO', 'QUEUE_FULL', 'FOO'];

describe.each(['queue', 'batch'] as const)(
  'stock push --route %s answered a batch status b2bctl does not know',
  (route) => {
    it.each(refusingWords)(
      '"%s": every item unknown quoting the word, exit 1, never queued or accepted',
      async (word) => {
        const text = JSON.stringify({ batchId: null, status: word, message: 'Fila cheia, lote descartado' });
        const { result, folder } = await pushAnswered(route, text);
        expect(result.code).toBe(1);
        expect(platform.received).toEqual([routes[route].route]);
        const message = `the platform answered the batch with the status "${word}", which b2bctl knows as neither applied, refused nor pending: ${text}`;
        expect(readReport(join(folder, onlyReport(folder, 'stock')))).toEqual(
          skus.map((sku) =>
            expect.objectContaining({ key: sku, outcome: 'unknown', status: String(routes[route].status), message }),
          ),
        );
        expect(readErrorsCsv(onlyFile(folder, 'stock.errors-')).rows.map((cells) => cells[0])).toEqual(skus);
        expect(result.stderr).toMatch(/^stock push: 3 unknown; 1 request,/m);
        expect(result.stderr).toContain(`warning: the stock ${route} route answered a batch with the status "${word}"`);
        expect(result.stderr).not.toMatch(/\d+ (queued|accepted)/);
      },
    );

    it.each(['QUEUED', 'EM_FILA', 'RECEIVED', 'PENDING', 'ACCEPTED', 'OK'])(
      '"%s": a word of taking the batch keeps it taken, exit 0',
      async (word) => {
        const { result, folder } = await pushAnswered(route, JSON.stringify({ batchId: 'b1', status: word }));
        expect(result.code).toBe(0);
        const taken = route === 'queue' ? 'queued' : 'accepted';
        const outcomes = readReport(join(folder, onlyReport(folder, 'stock'))).map((row) => row.outcome);
        expect(outcomes.every((outcome) => outcome === taken || outcome === 'applied')).toBe(true);
      },
    );

    it('an answer with no status at all stays taken, exit 0', async () => {
      const { result, folder } = await pushAnswered(route, '{"batchId":"b1"}');
      expect(result.code).toBe(0);
      expect(readReport(join(folder, onlyReport(folder, 'stock'))).map((row) => row.outcome)).toEqual(
        skus.map(() => (route === 'queue' ? 'queued' : 'accepted')),
      );
    });
  },
);

describe('stock push --route queue answered a count of 0 items queued', () => {
  it.each(['{"batchId":"b1","queued":0}', '{"batchId":"b1","accepted":0,"total":3}', '{"enfileirados":"0"}'])(
    '%s: every item unknown, exit 1',
    async (text) => {
      const { result, folder } = await pushAnswered('queue', text);
      expect(result.code).toBe(1);
      const rows = readReport(join(folder, onlyReport(folder, 'stock')));
      expect(rows.map((row) => row.outcome)).toEqual(skus.map(() => 'unknown'));
      expect(rows[0]?.message).toMatch(/^the platform answered the batch with "[a-z]+": 0 for a batch of 3: /);
      expect(result.stderr).not.toMatch(/\d+ queued/);
    },
  );

  it('a count of the whole batch stays queued, exit 0', async () => {
    const { result } = await pushAnswered('queue', '{"batchId":"b1","queued":3}');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^stock push: 3 queued; 1 request,/m);
  });
});

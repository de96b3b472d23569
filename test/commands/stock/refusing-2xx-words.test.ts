/**
 * The queue route's `202`, and the batch route's `200`, refusing the whole batch in words beyond `"success": false`
 * (the Portuguese `sucesso`, `situacao`, `accepted: false`, the document's `UNPROCESSABLE_ENTITY`, the JSON `false`),
 * from a scripted platform over real HTTP: each was `5 queued` or `5 accepted`, exit 0 (a fresh user test), a night's
 * stock silently not queued. Each item is `unknown` now, quoting the answer, exit 1, the errors file holding them to
 * send again.
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

/** `stock push stock.csv --route queue` against a queue route answering 202 with `text`. */
async function pushAnswered(text: string) {
  platform.routes['POST /api/v1/stocks/batch'] = (_request, _body, response) =>
    response.writeHead(202, { 'content-type': 'application/json' }).end(text);
  const folder = freshWorkDir();
  const rows = skus.map((sku, place) => `${sku},${place + 1},${place + 1}.00`);
  writeFileSync(join(folder, 'stock.csv'), ['sku,quantity,price', ...rows, ''].join('\n'));
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const args = ['stock', 'push', 'stock.csv', '--route', 'queue'];
  const result = await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
  return { result, folder };
}

describe('stock push --route queue answered 202 with a body that refuses the batch in other words', () => {
  it.each([
    '{"situacao":"REJEITADO","mensagem":"Lote inválido"}',
    '{"sucesso":false,"mensagem":"Lote inválido"}',
    '{"accepted":false,"reason":"queue full"}',
    '{"status":"SERVICE_UNAVAILABLE","message":"queue full"}',
    'false',
    '{"queued":false,"reason":"queue full"}',
    '{"enqueued":false}',
  ])('%s: every item unknown quoting it, exit 1, never "queued"', async (text) => {
    const { result, folder } = await pushAnswered(text);
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /api/v1/stocks/batch']);
    const message = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${text}`;
    expect(readReport(join(folder, onlyReport(folder, 'stock')))).toEqual(
      skus.map((sku) => expect.objectContaining({ key: sku, outcome: 'unknown', status: '202', message })),
    );
    expect(readErrorsCsv(onlyFile(folder, 'stock.errors-')).rows.map((cells) => cells[0])).toEqual(skus);
    expect(result.stderr).toMatch(/^stock push: 3 unknown; 1 request,/m);
    expect(result.stderr).not.toMatch(/\d+ queued/);
  });

  it.each(['{"batchId":"b1","aceito":true}', '{"batchId":"b1","situacao":"RECEBIDO"}', 'true'])(
    '%s: every item queued, exit 0',
    async (text) => {
      const { result, folder } = await pushAnswered(text);
      expect(result.code).toBe(0);
      expect(readReport(join(folder, onlyReport(folder, 'stock'))).map((row) => row.outcome)).toEqual(
        skus.map(() => 'queued'),
      );
    },
  );
});

describe('stock push --route batch answered 200 with a body that refuses the batch in other words', () => {
  it.each([
    '{"sucesso":false,"mensagem":"Lote inválido"}',
    '{"situacao":"ERRO","mensagem":"Lote inválido"}',
    '{"status":"UNPROCESSABLE_ENTITY","message":"Property [quantity] with value [x] does not pass validation"}',
    '{"statusCode":"BAD_REQUEST"}',
    '{"updated":false,"message":"Nenhum item atualizado"}',
    '{"processed":false}',
  ])('%s: every item unknown quoting it, exit 1, never "accepted"', async (text) => {
    platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(text);
    const folder = freshWorkDir();
    const rows = skus.map((sku, place) => `${sku},${place + 1},${place + 1}.00`);
    writeFileSync(join(folder, 'stock.csv'), ['sku,quantity,price', ...rows, ''].join('\n'));
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const args = ['stock', 'push', 'stock.csv', '--route', 'batch'];
    const result = await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['PUT /v1/stock/batch']);
    const message = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${text}`;
    expect(readReport(join(folder, onlyReport(folder, 'stock')))).toEqual(
      skus.map((sku) => expect.objectContaining({ key: sku, outcome: 'unknown', status: '200', message })),
    );
    expect(result.stderr).toMatch(/^stock push: 3 unknown; 1 request,/m);
  });
});

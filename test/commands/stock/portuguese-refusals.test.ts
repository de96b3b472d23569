/**
 * A stock batch refused `422` with its words under Portuguese names (`mensagem`, `erros: [{mensagem}]`), from a
 * scripted platform over real HTTP: the items failed with no reason at all ("failed with HTTP 422"), the words
 * dropped (a fresh user test). They are the reason now, as `message` is.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('stock push --route batch answered 422 in Portuguese', () => {
  it.each([
    ['{"mensagem":"Lote rejeitado: SKU-00001 inexistente"}', 'Lote rejeitado: SKU-00001 inexistente'],
    ['{"erros":[{"mensagem":"Lote inválido"}]}', 'Lote inválido'],
    ['{"erro":{"codigo":"E42","mensagem":"Lote inválido"}}', 'Lote inválido'],
  ])('%s: every item failed with the platform’s words', async (text, words) => {
    platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response.writeHead(422, { 'content-type': 'application/json' }).end(text);
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nSKU-00000,1,1.00\nSKU-00001,2,2.00\n');
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const args = ['stock', 'push', 'stock.csv', '--route', 'batch'];
    const result = await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['PUT /v1/stock/batch']);
    const failed = `PUT ${platform.url}/v1/stock/batch failed with HTTP 422: ${words}`;
    expect(readReport(join(folder, onlyReport(folder, 'stock')))).toEqual([
      expect.objectContaining({ key: 'SKU-00000', outcome: 'failed', status: '422', message: failed }),
      expect.objectContaining({ key: 'SKU-00001', outcome: 'failed', status: '422', message: failed }),
    ]);
  });
});

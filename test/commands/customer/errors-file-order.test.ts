/**
 * The errors file in the input's order (docs/bulk-runs.md), whatever order the outcomes came in: an invalid record
 * found while validating is written before the records sent ahead of it fail, and concurrent answers come in any
 * order. An operator fixes its rows beside the ERP's list, so they are put in the file's line order when the run ends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createHeader } from '../../support/customers.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();

const customer = (document: string, email: string) =>
  `cpf,${document},Cliente ${email},${email}@example.com,11987654321,Senha#1,01310-100,10`;

/** The errors file's `row` column, top to bottom. */
function errorsRows(folder: string, input: string): string[] {
  const name = readdirSync(folder).find((file) => file.startsWith(`${input}.errors-`)) as string;
  const rows = parse(readFileSync(join(folder, name), 'utf8'), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  return rows.map((row) => row.row as string);
}

describe('the errors file of a run whose outcomes came out of order', () => {
  it('an invalid record (line 4) found before lines 2 and 3 were refused by the platform: rows 2, 3, 4', async () => {
    platform.routes['POST /v1/customer'] = answerJsonText(
      422,
      JSON.stringify({ status: 'UNPROCESSABLE_ENTITY', message: 'Customer refused' }),
    );
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'c.csv', '--skip-invalid', '--no-input'],
      {
        'c.csv': `${createHeader}\n${customer('529.982.247-25', 'ana')}\n${customer('111.444.777-35', 'bia')}\n${customer('123', 'caio')}\n`,
      },
    );
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer', 'POST /v1/customer']);
    expect(errorsRows(folder, 'c')).toEqual(['2', '3', '4']);
  });

  it('answers that come in reverse order (line 3 answered before line 2): rows 2, 3', async () => {
    // The first request is answered only once the second has come, so line 3's answer is written first.
    let releaseFirst: (() => void) | undefined;
    let requests = 0;
    platform.routes['POST /v1/customer'] = (request, body, response) => {
      const refuse = () =>
        answerJsonText(422, JSON.stringify({ status: 'UNPROCESSABLE_ENTITY', message: 'Customer refused' }))(
          request,
          body,
          response,
        );
      requests++;
      if (requests === 1) {
        releaseFirst = refuse;
        return;
      }
      refuse();
      response.on('finish', () => releaseFirst?.());
    };
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'c.csv', '--concurrency', '2', '--no-input'],
      { 'c.csv': `${createHeader}\n${customer('529.982.247-25', 'ana')}\n${customer('111.444.777-35', 'bia')}\n` },
    );
    expect(result.code).toBe(1);
    const reportName = readdirSync(folder).find((file) => file.startsWith('c.report-')) as string;
    // The report stays in answer order: line 3 first, proof that the answers came reversed.
    expect(readFileSync(join(folder, reportName), 'utf8').split('\r\n')[1]?.startsWith('3,')).toBe(true);
    expect(errorsRows(folder, 'c')).toEqual(['2', '3']);
  });
});

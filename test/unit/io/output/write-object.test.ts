/** writeObject: one object a command got back, in each output; `--excel` reaches its CSV as it does a listing's. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OutputFormat } from '../../../../src/base/output-format.js';
import { writeObject } from '../../../../src/io/output/write-object.js';

async function written(format: OutputFormat, excel: boolean, object: Record<string, unknown>): Promise<string> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  await writeObject({ io: { stdout }, outputFormat: () => format, globals: { excel } }, object);
  return text;
}

describe('writeObject', () => {
  const order = { id: 7, partner: 'Atacadão Brandão', total: 1234.5 };

  it('-o csv: comma cells, no BOM', async () => {
    expect(await written('csv', false, order)).toBe('id,partner,total\r\n7,Atacadão Brandão,1234.5\r\n');
  });

  // A user test: an OData answer's `@odata.etag` (a key holding a dot) was looked up as a path and printed empty.
  describe('a key holding a dot is its own field, on a terminal and in CSV', () => {
    const answer = { id: 'c-1', '@odata.etag': 'W/"3"', 'custom.segment': 'varejo', custom: { segment: 'other' } };

    it('table', async () => {
      const lines = (await written('table', false, answer)).split('\n');
      expect(lines[1]).toBe('@odata.etag:    W/"3"');
      expect(lines[2]).toBe('custom.segment: varejo');
    });

    it('-o csv', async () => {
      expect(await written('csv', false, answer)).toBe(
        // The header cell that starts with @ is guarded as every cell a spreadsheet could run is (formula injection).
        `id,'@odata.etag,custom.segment,custom\r\nc-1,"W/""3""",varejo,"{""segment"":""other""}"\r\n`,
      );
    });
  });

  it('-o csv --excel: a BOM, ; between cells and a decimal comma, as a listing writes them', async () => {
    expect(await written('csv', true, order)).toBe('\uFEFFid;partner;total\r\n7;Atacadão Brandão;1234,5\r\n');
  });
});

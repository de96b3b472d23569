import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OutputFormat } from '../../../../src/context.js';
import { createRecordWriter, type RecordLayout } from '../../../../src/io/output/record-writer.js';

interface Rep {
  username: string;
  code: string;
  profile: { name: string } | null;
  allowed: string[];
  note?: string;
}

const layout: RecordLayout<Rep> = {
  table: [
    { header: 'EMAIL', value: (rep) => rep.username },
    { header: 'CODE', value: (rep) => rep.code },
    { header: 'PROFILE', value: (rep) => rep.profile?.name ?? '-' },
  ],
  csv: ['username', 'code', 'profile.name', 'allowed', 'note'],
};

const reps: Rep[] = [
  { username: 'ana@example.com', code: '001', profile: { name: 'Supervisor' }, allowed: ['a', 'b'] },
  { username: 'bo@example.com', code: '', profile: null, allowed: [], note: 'likes "quotes", commas' },
  {
    username: 'caio.souza@example.com',
    code: '12345',
    profile: { name: 'Vendas\nExternas' },
    allowed: ['c'],
    note: ' padded ',
  },
];

/** Writes the records in a format and returns every byte the stream received. */
async function written(
  format: OutputFormat,
  records: readonly Rep[],
  color = false,
): Promise<{ text: string; count: number }> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = createRecordWriter(format, stream, layout, { color });
  for (const record of records) await writer.write(record);
  const count = await writer.end();
  stream.end();
  await new Promise((resolve) => stream.once('end', resolve));
  return { text: Buffer.concat(chunks).toString('utf8'), count };
}

describe('json writer', () => {
  it.each([
    { name: 'no records', records: [] },
    { name: 'one record', records: reps.slice(0, 1) },
    { name: 'three records', records: reps },
    {
      name: 'records with nested lists and objects',
      records: [{ username: 'x', code: '1', profile: { name: 'P' }, allowed: ['a', 'b', 'c'], note: 'a\nb' }],
    },
  ])('$name: the same bytes as JSON.stringify(list, null, 2)', async ({ records }) => {
    const { text, count } = await written('json', records);
    expect(text).toBe(`${JSON.stringify(records, null, 2)}\n`);
    expect(count).toBe(records.length);
  });

  it('streams large listings through back-pressure', async () => {
    const many = Array.from({ length: 2000 }, (_, index) => ({ ...reps[0]!, username: `rep${index}@example.com` }));
    const { text, count } = await written('json', many);
    expect(count).toBe(2000);
    expect(text).toBe(`${JSON.stringify(many, null, 2)}\n`);
  });
});

describe('ndjson writer', () => {
  it.each([
    { name: 'no records', records: [], expected: '' },
    { name: 'three records', records: reps, expected: reps.map((rep) => `${JSON.stringify(rep)}\n`).join('') },
  ])('$name', async ({ records, expected }) => {
    const { text, count } = await written('ndjson', records);
    expect(text).toBe(expected);
    expect(count).toBe(records.length);
  });
});

describe('csv writer', () => {
  it.each([
    { name: 'header even when empty', records: [], expected: 'username,code,profile.name,allowed,note\r\n' },
    {
      name: 'dot paths, lists joined, cells escaped',
      records: reps,
      expected: [
        'username,code,profile.name,allowed,note\r\n',
        'ana@example.com,001,Supervisor,a|b,\r\n',
        'bo@example.com,,,,"likes ""quotes"", commas"\r\n',
        'caio.souza@example.com,12345,"Vendas\nExternas",c," padded "\r\n',
      ].join(''),
    },
  ])('$name', async ({ records, expected }) => {
    const { text, count } = await written('csv', records);
    expect(text).toBe(expected);
    expect(count).toBe(records.length);
  });
});

describe('table writer', () => {
  it.each([
    { name: 'header only when empty', records: [], expected: 'EMAIL  CODE  PROFILE\n' },
    {
      name: 'columns padded to the widest cell, line breaks flattened, no trailing spaces',
      records: reps,
      expected: [
        'EMAIL                   CODE   PROFILE\n',
        'ana@example.com         001    Supervisor\n',
        'bo@example.com                 -\n',
        'caio.souza@example.com  12345  Vendas Externas\n',
      ].join(''),
    },
    {
      name: 'combining marks take no column',
      records: [
        { username: 'jose\u0301@example.com', code: '1', profile: null, allowed: [] },
        { username: 'ab', code: '2', profile: null, allowed: [] },
      ],
      // "josé@example.com" is 16 columns although "jose\u0301" is 17 code units.
      expected: [
        `${'EMAIL'.padEnd(16)}  CODE  PROFILE\n`,
        'jos\u00e9@example.com  1     -\n',
        `${'ab'.padEnd(16)}  2     -\n`,
      ].join(''),
    },
  ])('$name', async ({ records, expected }) => {
    const { text, count } = await written('table', records);
    expect(text.normalize('NFC')).toBe(expected);
    expect(count).toBe(records.length);
  });

  it('bolds the header only when colour is on', async () => {
    const { text } = await written('table', reps.slice(0, 1), true);
    expect(text.split('\n')[0]).toBe('\u001b[1mEMAIL            CODE  PROFILE\u001b[22m');
    expect(text.split('\n')[1]).toBe('ana@example.com  001   Supervisor');
  });
});

describe('CSV for a pt-BR Excel (--excel)', () => {
  it('writes a BOM, ";" between cells and decimal commas; a cell holding ";" is quoted', async () => {
    const records = [
      { sku: 'A-1', price: 1234.5, note: 'caixa; 12 un' },
      { sku: 'B-2', price: 7, note: '=SUM(A1)' },
    ];
    expect(await csvOf(records, true)).toBe(
      '\uFEFFsku;price;note\r\nA-1;1234,5;"caixa; 12 un"\r\nB-2;7;\'=SUM(A1)\r\n',
    );
    // Without it, the RFC 4180 CSV as before.
    expect(await csvOf(records, false)).toBe("sku,price,note\r\nA-1,1234.5,caixa; 12 un\r\nB-2,7,'=SUM(A1)\r\n");
  });
});

async function csvOf(records: readonly Record<string, unknown>[], excel: boolean): Promise<string> {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const writer = createRecordWriter<Record<string, unknown>>(
    'csv',
    stream,
    { table: [], csv: ['sku', 'price', 'note'] },
    { color: false, excel },
  );
  for (const record of records) await writer.write(record);
  await writer.end();
  return text;
}

import { describe, expect, it } from 'vitest';
import {
  formatFromContent,
  formatFromExtension,
  type InputFormat,
  looksBinary,
  sniffDelimiter,
  sniffEncoding,
  type TextEncoding,
} from '../../../../src/io/input/sniff.js';

describe('formatFromExtension', () => {
  it.each<[string, InputFormat | undefined]>([
    ['customers.csv', 'csv'],
    ['CUSTOMERS.CSV', 'csv'],
    ['export.txt', 'csv'],
    ['stock.tsv', 'csv'],
    ['customers.json', 'json'],
    ['Customers.JSON', 'json'],
    ['customers.ndjson', 'ndjson'],
    ['customers.jsonl', 'ndjson'],
    ['/tmp/dir.csv/customers.json', 'json'],
    ['./data/estoque.2026-11-22.csv', 'csv'],
    ['customers.dat', undefined],
    ['customers', undefined],
    ['-', undefined],
    ['customers.csv.gz', undefined],
    ['customers.xlsx', undefined],
    ['json', undefined],
  ])('%j → %s', (path, expected) => {
    expect(formatFromExtension(path)).toBe(expected);
  });
});

describe('formatFromContent', () => {
  it.each<[string, string, InputFormat]>([
    ['a JSON array', '[{"document":"1"},{"document":"2"}]', 'json'],
    ['a JSON array after blank lines', '\n\n  [\n  {"document":"1"}\n]', 'json'],
    ['a JSON array after a BOM', '\uFEFF[{"document":"1"}]', 'json'],
    ['an empty JSON array', '[]', 'json'],
    ['NDJSON', '{"document":"1"}\n{"document":"2"}\n', 'ndjson'],
    ['NDJSON with CRLF', '{"document":"1"}\r\n{"document":"2"}\r\n', 'ndjson'],
    ['NDJSON after a BOM', '\uFEFF{"document":"1"}\n{"document":"2"}', 'ndjson'],
    ['NDJSON with blank lines between', '{"a":1}\n\n\n{"a":2}', 'ndjson'],
    ['NDJSON cut mid-record at the sample end', '{"a":1}\n{"a":2}\n{"a":', 'ndjson'],
    ['one object on one line', '{"document":"1","name":"Ana"}', 'json'],
    ['one object on one line with a newline after it', '{"document":"1"}\n', 'json'],
    ['one object over several lines', '{\n  "document": "1",\n  "name": "Ana"\n}\n', 'json'],
    ['one object after a BOM', '\uFEFF{\n  "document": "1"\n}', 'json'],
    ['a comma CSV', 'document,name\n123,Ana\n', 'csv'],
    ['a semicolon CSV', 'document;name\r\n123;Ana\r\n', 'csv'],
    ['a CSV after a BOM', '\uFEFFdocument;name\r\n', 'csv'],
    ['a CSV whose first cell is quoted', '"document","name"\n', 'csv'],
    ['a single CSV header', 'sku', 'csv'],
  ])('%s → %s', (_name, head, expected) => {
    expect(formatFromContent(head)).toBe(expected);
  });
});

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => [...Buffer.from(text, 'latin1')];
const bytesOf = (values: number[] | Buffer) => new Uint8Array(values);

describe('sniffEncoding', () => {
  it.each<[string, Uint8Array, TextEncoding]>([
    [
      'UTF-8 accents and then a Windows-1252 byte (mixed: the decoder names the line)',
      bytes(...utf8('São\r\n'), ...ascii('Jo'), 0xe3, ...ascii('o\r\n')),
      'utf-8',
    ],
    ['an empty sample', bytes(), 'utf-8'],
    ['plain ASCII', utf8('document;name\r\n123;Ana\r\n'), 'utf-8'],
    ['UTF-8 accents', utf8('nome;cidade\r\nJoão;São Paulo\r\nação;Ñandú\r\n'), 'utf-8'],
    ['UTF-8 with a BOM', utf8('\uFEFFnome;cidade\r\nJoão;São Paulo\r\n'), 'utf-8'],
    [
      'a BOM followed by bytes that are not UTF-8',
      bytes(0xef, 0xbb, 0xbf, ...ascii('Jo'), 0xe3, ...ascii('o;x')),
      'windows-1252',
    ],
    ['Windows-1252 ã (0xE3) followed by text', bytes(...ascii('nome\r\nJo'), 0xe3, ...ascii('o\r\n')), 'windows-1252'],
    ['Windows-1252 ç (0xE7) and é (0xE9)', bytes(...ascii('A'), 0xe7, 0xe9, ...ascii('B\r\n')), 'windows-1252'],
    ['Windows-1252 € (0x80)', bytes(...ascii('pre'), 0x80, ...ascii('o;10\r\n')), 'windows-1252'],
    ['Windows-1252 Ç at the start (0xC7 0x41)', bytes(0xc7, 0x41, ...ascii('O\r\n')), 'windows-1252'],
    ['a two-byte ç cut after its first byte at the sample end', utf8('cidade\r\nação').subarray(0, 10), 'utf-8'],
    ['a three-byte € cut after two bytes', utf8('preço €').subarray(0, -1), 'utf-8'],
    ['a four-byte emoji cut after three bytes', utf8('ok 😀').subarray(0, -1), 'utf-8'],
    ['an overlong encoding', bytes(0xc0, 0xaf, ...ascii('x')), 'windows-1252'],
  ])('%s → %s', (_name, sample, expected) => {
    expect(sniffEncoding(sample)).toBe(expected);
  });

  it('the cut sample is really a cut: decoding it strictly without streaming throws', () => {
    const cut = utf8('cidade\r\nação').subarray(0, 10);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(cut)).toThrow(TypeError);
  });
});

describe('looksBinary', () => {
  it.each<[string, Uint8Array, boolean]>([
    ['an empty sample', bytesOf([]), false],
    ['a CSV with CRLF and tabs', bytesOf(Buffer.from('a\tb;c\r\n1\t2;3\r\n')), false],
    ['Windows-1252 accents', bytesOf([0x4a, 0x6f, 0xe3, 0x6f, 0x0d, 0x0a]), false],
    ['UTF-8 accents', bytesOf(Buffer.from('João;São Paulo\n')), false],
    ['a NUL byte among text', bytesOf(Buffer.from('abc\u0000def')), true],
    ['UTF-16LE text (NULs between letters)', bytesOf(Buffer.from('document', 'utf16le')), true],
    ['mostly control characters', bytesOf([1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 65]), true],
    ['one control character in eleven bytes', bytesOf([...Buffer.from('abcdefghij'), 0x01]), false],
    ['a ZIP (xlsx) header', bytesOf([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), true],
    ['a form feed and a vertical tab count as text', bytesOf(Buffer.from('a\u000bb\u000cc\r\n')), false],
  ])('%s → %s', (_name, sample, expected) => {
    expect(looksBinary(sample)).toBe(expected);
  });

  it('only the first 4096 bytes are looked at', () => {
    const sample = new Uint8Array(8192).fill(0x41);
    sample[5000] = 0;
    expect(looksBinary(sample)).toBe(false);
    sample[4095] = 0;
    expect(looksBinary(sample)).toBe(true);
  });
});

describe('sniffDelimiter', () => {
  it.each<[string, string, string]>([
    ['commas', 'document,name,email\n1,2,3\n', ','],
    ['semicolons', 'document;name;email\r\n1;2;3\r\n', ';'],
    ['tabs', 'document\tname\temail\n1\t2\t3\n', '\t'],
    ['semicolons with a decimal comma in the data', 'sku;price;quantity\r\nA;1.234,56;3\r\n', ';'],
    ['commas inside a quoted header cell are ignored', '"Razão Social, Nome, Fantasia, Outro";CNPJ;CEP\r\n', ';'],
    ['semicolons inside a quoted header cell are ignored', '"a;b;c;d;e",x,y\n', ','],
    ['escaped quotes inside a quoted cell', '"say ""hi"", ok, ok";x;y\n', ';'],
    ['a quoted cell holding a line break', '"first\nsecond, third, fourth";x;y\n1,2,3,4,5,6\n', ';'],
    ['only the first line counts', 'a;b\nc,d,e,f,g\n', ';'],
    ['only the first line counts with CR endings', 'a;b\rc,d,e,f,g\r', ';'],
    ['a BOM before the header', '\uFEFFa;b;c\n', ';'],
    ['a tie between comma and semicolon → comma', 'a,b;c\n', ','],
    ['a tie between comma and tab → comma', 'a\tb,c\n', ','],
    ['no delimiter at all → comma', 'sku\n', ','],
    ['empty text → comma', '', ','],
    ['more semicolons than commas', 'a,b;c;d\n', ';'],
    ['more tabs than semicolons', 'a;b\tc\td\n', '\t'],
  ])('%s → %j', (_name, text, expected) => {
    expect(sniffDelimiter(text)).toBe(expected);
  });
});

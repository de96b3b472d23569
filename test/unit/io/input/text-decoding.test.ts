import { describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../../../src/base/errors.js';
import type { TextEncoding } from '../../../../src/io/input/sniff.js';
import { decodeText } from '../../../../src/io/input/decode-text.js';
import { normalizeLineEnds } from '../../../../src/io/input/text-decoding.js';
import { type FollowedText, followAll } from '../../../support/followed-pieces.js';

async function* fromChunks<T>(chunks: readonly T[]): AsyncGenerator<T> {
  for (const chunk of chunks) yield chunk;
}

async function collect(source: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of source) text += piece;
  return text;
}

/** The bytes split at every given offset. */
function splitAt(bytes: Buffer, offsets: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  for (const offset of offsets) {
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** A string cut into pieces of `size` characters. */
function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size) result.push(text.slice(index, index + size));
  return result;
}

describe('decodeText', () => {
  const accented = 'nome;cidade\r\nJoão;São Paulo\r\nAção € 😀;Ñ\r\n';
  const accentedBytes = Buffer.from(accented, 'utf8');

  it.each<[string, Buffer[], string]>([
    ['one chunk', [accentedBytes], accented],
    ['a two-byte ã split between chunks', splitAt(accentedBytes, [accentedBytes.indexOf(0xc3) + 1]), accented],
    [
      'every byte its own chunk',
      splitAt(
        accentedBytes,
        Array.from({ length: accentedBytes.length - 1 }, (_, index) => index + 1),
      ),
      accented,
    ],
    ['a four-byte emoji split after 1, 2 and 3 bytes', splitAt(Buffer.from('a😀b'), [2, 3, 4]), 'a😀b'],
    ['a three-byte € split after 2 bytes', splitAt(Buffer.from('€10'), [2]), '€10'],
    ['a BOM is dropped', [Buffer.from('\uFEFFdocument\n', 'utf8')], 'document\n'],
    [
      'a BOM split over three chunks is dropped',
      splitAt(Buffer.from('\uFEFFdocument\n', 'utf8'), [1, 2]),
      'document\n',
    ],
    ['empty input', [], ''],
    ['empty chunks', [Buffer.alloc(0), Buffer.from('ok'), Buffer.alloc(0)], 'ok'],
  ])('UTF-8, %s', async (_name, chunks, expected) => {
    expect(await collect(decodeText(fromChunks(chunks), 'utf-8', 'in.csv'))).toBe(expected);
  });

  it('UTF-8 accepts string chunks', async () => {
    expect(await collect(decodeText(fromChunks(['João', ';', 'São']), 'utf-8', 'in.csv'))).toBe('João;São');
  });

  it.each<[string, number[][], string]>([
    ['0x80 is the euro sign, not U+0080', [[0x80, 0x20, 0x31, 0x30]], '€ 10'],
    ['ã ç é õ Ç', [[0xe3, 0xe7, 0xe9, 0xf5, 0xc7]], 'ãçéõÇ'],
    ['the 0x80–0x9F block', [[0x80, 0x20, 0x93, 0x94, 0x96, 0x20, 0x99, 0x20, 0x85]], '€ “”– ™ …'],
    ['several chunks', [[0x4a, 0x6f], [0xe3], [0x6f, 0x0d, 0x0a]], 'João\r\n'],
    ['bytes that would be invalid UTF-8', [[0xc3, 0x28]], 'Ã('],
  ])('Windows-1252, %s', async (_name, chunks, expected) => {
    const text = await collect(
      decodeText(fromChunks(chunks.map((chunk) => Buffer.from(chunk))), 'windows-1252', 'in.csv'),
    );
    expect(text).toBe(expected);
  });

  it.each<[string, Buffer[], RegExp]>([
    [
      'a Windows-1252 ã in a later chunk',
      [Buffer.from('nome\r\nAna\r\n'), Buffer.from([0x4a, 0x6f, 0xe3, 0x6f, 0x0d, 0x0a])],
      /^in\.csv:3: not valid UTF-8 \(bytes 0xE3 0x6F 0x0D 0x0A after byte 13\)\./,
    ],
    [
      'a Windows-1252 byte in the first chunk',
      [Buffer.from([0x41, 0xe7, 0x41])],
      /^in\.csv:1: not valid UTF-8 \(bytes 0xE7 0x41 after byte 1\)\./,
    ],
    [
      'a sequence cut short by the end of the file',
      [Buffer.from('ok'), Buffer.from([0xc3])],
      /^in\.csv:1: not valid UTF-8 \(bytes 0xC3 after byte 2\)/,
    ],
  ])('invalid UTF-8: %s stops with the fix', async (_name, chunks, message) => {
    const error = await collect(decodeText(fromChunks(chunks), 'utf-8', 'in.csv')).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(message);
    expect((error as InputError).message).toContain('--encoding windows-1252');
    expect((error as InputError).file).toBe('in.csv');
    expect((error as InputError).exitCode).toBe(ExitCode.dataInvalid);
  });

  it('yields the good text before the bad chunk, so records before it are read', async () => {
    const seen: string[] = [];
    const decoding = decodeText(fromChunks([Buffer.from('a\nb\n'), Buffer.from([0xff])]), 'utf-8', 'in.csv');
    await expect(
      (async () => {
        for await (const piece of decoding) seen.push(piece);
      })(),
    ).rejects.toThrow(InputError);
    expect(seen.join('')).toBe('a\nb\n');
  });

  it.each<TextEncoding>(['utf-8', 'windows-1252'])('%s passes plain ASCII through unchanged', async (encoding) => {
    const ascii = 'document,name\r\n123,Ana\r\n';
    expect(await collect(decodeText(fromChunks([Buffer.from(ascii)]), encoding, 'in.csv'))).toBe(ascii);
  });
});

/** The normalized text and what the quote follower found in it. */
async function normalized(
  chunks: readonly string[],
  delimiter = ',',
): Promise<{ text: string; tracker: FollowedText }> {
  const tracker = await followAll(chunks, delimiter);
  return { text: tracker.text, tracker };
}

describe('normalizeLineEnds', () => {
  it.each<[string, string[], string]>([
    ['CRLF', ['a,b\r\n1,2\r\n'], 'a,b\n1,2\n'],
    ['lone CR (old Mac Excel)', ['a,b\r1,2\r'], 'a,b\n1,2\n'],
    ['LF untouched', ['a,b\n1,2\n'], 'a,b\n1,2\n'],
    ['mixed', ['a\r\nb\rc\nd'], 'a\nb\nc\nd'],
    ['CR CR LF is two line ends', ['a\r\r\nb'], 'a\n\nb'],
    ['a CR at a chunk end, LF at the next chunk start', ['a,b\r', '\n1,2\r', '\n'], 'a,b\n1,2\n'],
    ['a CR at a chunk end followed by text', ['a\r', 'b'], 'a\nb'],
    ['a CR at a chunk end followed by CR LF', ['a\r', '\r\nb'], 'a\n\nb'],
    ['a CR as the last character of the input', ['a\r'], 'a\n'],
    ['a CR alone in a chunk, then LF alone', ['a', '\r', '\n', 'b'], 'a\nb'],
    ['a CR before empty chunks, then LF', ['a\r', '', '', '\nb'], 'a\nb'],
    ['one character per chunk', pieces('a,b\r\n1,2\r\n3\r4', 1), 'a,b\n1,2\n3\n4'],
    ['CRLF inside a quoted field', ['a,"x\r\ny"\r\n'], 'a,"x\ny"\n'],
    ['empty input', [], ''],
  ])('%s', async (_name, chunks, expected) => {
    expect((await normalized(chunks)).text).toBe(expected);
  });

  it.each<[string, string, string, number | undefined]>([
    ['a quote opened on line 3 and never closed', 'h1,h2\n1,2\n3,"never\n4,5\n6,7\n', ',', 3],
    ['the same with CRLF', 'h1,h2\r\n1,2\r\n3,"never\r\n4,5\r\n', ',', 3],
    ['the same opening a line with the quote', 'h1,h2\n1,2\n"never,3\n4,5\n', ',', 3],
    ['a quote closed on a later line', 'h1,h2\n1,"two\nlines"\n3,4\n', ',', undefined],
    ['escaped quotes inside a quoted field', 'h1,h2\n1,"he said ""hi"", twice"\n2,3\n', ',', undefined],
    ['a field that is only an escaped quote', 'h1,h2\n1,""""\n', ',', undefined],
    ['an empty quoted field', 'h1,h2\n"",""\n', ',', undefined],
    ['an escaped quote right before the line end keeps the field open', 'h1,h2\n1,2\n3,"x""\n4,5\n', ',', 3],
    ['a quote inside an unquoted field does not open quoting', 'h1,h2\n1,5" screen\n2,3\n', ',', undefined],
    ['an odd count of quotes in unquoted fields', 'h1,h2\nab"c,d"e"f\n2,3\n', ',', undefined],
    ['a quote after a comma that is not the delimiter', 'h1;h2\n1;a,"b\n2;3\n', ';', undefined],
    ['a quote after the semicolon delimiter', 'h1;h2\n1;2\n3;4\n5;"never\n', ';', 4],
    ['a quote after a tab delimiter', 'h1\th2\n1\t"never\n', '\t', 2],
    ['a quote after a pipe delimiter (a regular expression character)', 'h1|h2\n1|"never\n', '|', 2],
    ['a closed quote, then another opened later', 'h\n"a\nb"\n"c"\n"d\ne\n', ',', 5],
    ['a line-end inside quotes does not end the record', 'h\n"a\n"b\n', ',', undefined],
  ])('openQuoteLine: %s', async (_name, text, delimiter, expected) => {
    for (const size of [text.length, 1, 2, 3]) {
      const { tracker } = await normalized(pieces(text, size), delimiter);
      expect({ size, line: tracker.openQuoteLine }).toEqual({ size, line: expected });
    }
  });

  it.each<[string, string, number[]]>([
    ['one record per line', 'h\n1\n2\n', [1, 2, 3]],
    ['empty lines start no record', '\nh\n\n\n1\n\n2', [2, 5, 7]],
    ['a quoted field spanning lines', 'h,n\n1,"a\n\nb"\n2,c\n', [1, 2, 5]],
    ['a record that starts with a delimiter', 'h,n\n,x\n', [1, 2]],
    ['a record that starts with a quote', 'h\n"x"\n', [1, 2]],
    ['CRLF', 'h\r\n1\r\n\r\n2\r\n', [1, 2, 4]],
  ])('recordStarts: %s', async (_name, text, expected) => {
    for (const size of [text.length, 1]) {
      const { tracker } = await normalized(pieces(text, size));
      expect(tracker.recordStarts).toEqual(expected);
    }
  });

  it('normalizeLineEnds alone only normalizes line ends', async () => {
    expect(await collect(normalizeLineEnds(fromChunks(['a,"b\r', '\nc\r'])))).toBe('a,"b\nc\n');
  });

  it.each<[string, string[], { at: number; lineAfter: number }[]]>([
    [
      'each piece ends its whole records at its last line break',
      ['h\n1\n2', '\n3'],
      [
        { at: 4, lineAfter: 3 },
        { at: 6, lineAfter: 4 },
      ],
    ],
    [
      'a quoted line break ends no record',
      ['h\n"a\nb', '"\n'],
      [
        { at: 2, lineAfter: 2 },
        { at: 8, lineAfter: 4 },
      ],
    ],
    [
      'a piece inside a quoted cell ends none',
      ['h\n"a\n', 'b\nc', '"\n'],
      [
        { at: 2, lineAfter: 2 },
        { at: 10, lineAfter: 5 },
      ],
    ],
    [
      'CRLF counted once',
      ['h\r\n1\r', '\n'],
      [
        { at: 2, lineAfter: 2 },
        { at: 4, lineAfter: 3 },
      ],
    ],
  ])('each piece says where its whole records end: %s', async (_name, chunks, expected) => {
    expect((await normalized(chunks)).tracker.recordEnds).toEqual(expected);
  });
});

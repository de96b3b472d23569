/** Guesses about an input file from its first bytes: format, encoding, delimiter. Pure. */

export type InputFormat = 'csv' | 'json' | 'ndjson' | 'xlsx' | 'ods';
/** `utf-8`, or any encoding label iconv-lite knows (`windows-1252`, `cp850`, `macintosh`, `utf-16le`). */
export type TextEncoding = string;

/** The format by extension; undefined when the name does not tell (stdin, `.dat`). */
export function formatFromExtension(path: string): InputFormat | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension === 'csv' || extension === 'txt' || extension === 'tsv') return 'csv';
  if (extension === 'json') return 'json';
  if (extension === 'ndjson' || extension === 'jsonl') return 'ndjson';
  return undefined;
}

/** The format from the content: `[` starts JSON; one object per line is NDJSON; one object is JSON; else CSV. */
export function formatFromContent(head: string): InputFormat {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'json';
  if (!text.startsWith('{')) return 'csv';
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > 1) {
    try {
      JSON.parse(lines[0] ?? '');
      return 'ndjson';
    } catch {
      return 'json';
    }
  }
  return 'json';
}

/** The encoding a byte order mark at the start of a file announces, with the mark's length. */
export function byteOrderMark(
  head: Uint8Array,
): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** A well-formed two-, three- or four-byte UTF-8 sequence, in bytes read as latin1. */
const utf8Sequence = /[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}/;

/**
 * UTF-8 when the sample decodes strictly, or when it holds UTF-8 accents next to a byte that is not
 * UTF-8 (mixed encodings: the decoder then names that byte's line); else Windows-1252, which is what
 * pt-BR Excel saves as "CSV". A BOM does not settle it: a BOM followed by Windows-1252 is read as
 * Windows-1252. A sequence cut at the sample's end does not count against UTF-8.
 */
export function sniffEncoding(sample: Uint8Array): 'utf-8' | 'windows-1252' {
  const body = byteOrderMark(sample)?.encoding === 'utf-8' ? sample.subarray(3) : sample;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
    return 'utf-8';
  } catch {
    return utf8Sequence.test(Buffer.from(body).toString('latin1')) ? 'utf-8' : 'windows-1252';
  }
}

/** True when the sample looks binary (NUL bytes, or mostly control characters): not a text export. */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample.subarray(0, 4096)) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return control / Math.min(sample.length, 4096) > 0.1;
}

/**
 * A NUL byte in what otherwise reads as text (a damaged export, a cell pasted from a binary): where it is, by line and
 * byte. Undefined when the sample is binary throughout (several NULs, or mostly control characters).
 */
export function nulInText(sample: Uint8Array): { line: number; byte: number } | undefined {
  const window = sample.subarray(0, 4096);
  const at = window.indexOf(0);
  if (at === -1) return undefined;
  let nuls = 0;
  let control = 0;
  for (const byte of window) {
    if (byte === 0) nuls++;
    else if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  if (nuls > 4 || control / window.length > 0.1) return undefined;
  let line = 1;
  for (let index = window.indexOf(0x0a); index !== -1 && index < at; index = window.indexOf(0x0a, index + 1)) line++;
  return { line, byte: at };
}

const candidateDelimiters = [',', ';', '\t'] as const;

/**
 * The delimiter of a CSV from its header line: whichever of `,` `;` tab appears most often outside
 * quotes (csv-parse's own `delimiter_auto` throws on quoted fields). Comma on a tie.
 */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>(candidateDelimiters.map((delimiter) => [delimiter, 0]));
  let inQuotes = false;
  for (const character of text.replace(/^\uFEFF/, '')) {
    if (character === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (character === '\n' || character === '\r')) break;
    else if (!inQuotes && counts.has(character)) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  let best: string = ',';
  for (const delimiter of candidateDelimiters)
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/** Excel's `sep=;` first line, which names the delimiter of the rest of the file; undefined when absent. */
export function delimiterLine(text: string): string | undefined {
  return /^\uFEFF?sep=([^\r\n])\r?\n/i.exec(text)?.[1];
}

/**
 * The decimal separator of a CSV file, and whether its own numbers settle it. A `,` file writes a decimal point. A
 * tab-separated pt-BR export writes `119,90`, so a sample with decimal commas and no decimal point is read with a
 * comma. A `;` file is pt-BR, with a decimal comma, unless its sample holds decimal points (`17.50`) and no comma:
 * an ERP that writes `;` and points. Settled means the sample's decimal commas show it; otherwise a `1.000` is a
 * thousand to one hand and one to another, and is refused naming both.
 */
export function sniffDecimal(text: string, delimiter: string): { decimal: '.' | ','; settled: boolean } {
  if (delimiter === ',') return { decimal: '.', settled: false };
  let commas = 0;
  let points = 0;
  for (const line of text.split(/\r?\n|\r/).slice(1, -1)) {
    for (const cell of line.split(delimiter)) {
      const value = cell.trim().replace(/^"(.*)"$/, '$1');
      if (/^[+-]?(\d{1,3}(\.\d{3})+|\d+),\d+$/.test(value)) commas++;
      else if (/^[+-]?\d+\.\d+$/.test(value) && !/^[+-]?\d{1,3}(\.\d{3})+$/.test(value)) points++;
    }
  }
  // A `;` file keeps its comma unless points alone show; any other needs commas alone to take one.
  const pointsAlone = points > 0 && commas === 0;
  const commasAlone = commas > 0 && points === 0;
  const decimal = (delimiter === ';' ? !pointsAlone : commasAlone) ? ',' : '.';
  return { decimal, settled: decimal === ',' && commas > 0 };
}

/** The way out for a workbook b2bctl does not read: save it as .xlsx (or CSV), on any system. */
const saveAsXlsx =
  'Save it as .xlsx (Excel: Save As > "Excel Workbook"; LibreOffice: File > Save As > "Excel 2007-365"), or convert it with soffice --headless --convert-to xlsx FILE, and pass that file.';

/** A workbook b2bctl reads (an Office Open XML or OpenDocument zip), from its first bytes; undefined otherwise. Pure. */
export function workbookFormat(head: Uint8Array): 'xlsx' | 'ods' | undefined {
  if (!(head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)) return undefined;
  // An OpenDocument file names its type uncompressed right after the ZIP header (its `mimetype` entry).
  const latin = Buffer.from(head.subarray(0, 256)).toString('latin1');
  return latin.includes('application/vnd.oasis.opendocument.spreadsheet') ? 'ods' : 'xlsx';
}

/**
 * What a file that is not CSV or JSON text nor a workbook most probably is, from its first bytes, with what to do
 * instead; or undefined. Named so the operator knows which program to save from, not just "binary". Pure.
 */
export function binaryKind(head: Uint8Array): string | undefined {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))
    return `this is an old Excel workbook (.xls), which b2bctl does not read. ${saveAsXlsx}`;
  if (starts(0x1f, 0x8b))
    return 'this is gzip-compressed. Decompress it first (gunzip FILE), or pipe it: zcat FILE | b2bctl … -';
  const utf16 = utf16WithoutMark(head);
  if (utf16)
    return `this is UTF-16 text without a byte-order mark (${utf16}). Pass --encoding ${utf16}, or save it as UTF-8.`;
  return undefined;
}

/** ASCII-range text in UTF-16 has a NUL in every other byte: odd positions for little-endian, even for big-endian. */
function utf16WithoutMark(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = head.subarray(0, Math.min(head.length, 512) & ~1);
  if (sample.length < 8) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < sample.length; index += 2) {
    if (sample[index] === 0) evenZeros++;
    if (sample[index + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros >= pairs * 0.8 && evenZeros === 0) return 'utf-16le';
  if (evenZeros >= pairs * 0.8 && oddZeros === 0) return 'utf-16be';
  return undefined;
}

/**
 * What a text file of markup most probably is (a spreadsheet saved as XML or as a web page, a download that
 * failed), with what to do instead; undefined for text that does not start with markup. Pure.
 */
export function markupKind(headText: string): string | undefined {
  const text = headText.replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('<')) return undefined;
  if (text.includes('application/vnd.oasis.opendocument.spreadsheet'))
    return `this is a LibreOffice spreadsheet saved as flat XML (.fods), which b2bctl does not read. ${saveAsXlsx}`;
  if (text.includes('urn:schemas-microsoft-com:office:spreadsheet'))
    return `this is an Excel spreadsheet saved as XML (2003), which b2bctl does not read. ${saveAsXlsx}`;
  if (/^<(?:!doctype\s+html|html)[\s>]/i.test(text) || /<html[\s>]/i.test(text.slice(0, 4096)))
    return 'this is a web page (HTML), not CSV: a sheet saved as a web page, or a download that failed. Export the data as CSV.';
  if (text.startsWith('<?xml')) return 'this is an XML document, not CSV or JSON. Export the data as CSV or JSON.';
  return undefined;
}

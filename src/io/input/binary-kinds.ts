/** The way out for a workbook: save it as CSV. */
const saveAsCsv = {
  calc: 'In LibreOffice Calc choose File > Save As > "Text CSV (.csv)" with UTF-8 and pass that file.',
  excel: 'In Excel choose "Save As" > "CSV UTF-8" and pass that file.',
};

/**
 * What a file that is not CSV or JSON text most probably is, from its first bytes, with what to do instead; or
 * undefined. Named so the operator knows which program to save from, not just "binary". Pure.
 */
export function binaryKind(head: Uint8Array): string | undefined {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    // An OpenDocument file names its type uncompressed right after the ZIP header (its `mimetype` entry).
    const latin = Buffer.from(head.subarray(0, 256)).toString('latin1');
    if (latin.includes('application/vnd.oasis.opendocument.spreadsheet'))
      return `this is a LibreOffice spreadsheet (.ods), not CSV. ${saveAsCsv.calc}`;
    return `this is an Excel workbook (.xlsx), not CSV. ${saveAsCsv.excel}`;
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))
    return `this is an old Excel workbook (.xls), not CSV. ${saveAsCsv.excel}`;
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
    return `this is a LibreOffice spreadsheet saved as flat XML (.fods), not CSV. ${saveAsCsv.calc}`;
  if (text.includes('urn:schemas-microsoft-com:office:spreadsheet'))
    return `this is an Excel spreadsheet saved as XML, not CSV. ${saveAsCsv.excel}`;
  if (/^<(?:!doctype\s+html|html)[\s>]/i.test(text) || /<html[\s>]/i.test(text.slice(0, 4096)))
    return 'this is a web page (HTML), not CSV: a sheet saved as a web page, or a download that failed. Export the data as CSV.';
  if (text.startsWith('<?xml')) return 'this is an XML document, not CSV or JSON. Export the data as CSV or JSON.';
  return undefined;
}

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
      return 'this is a LibreOffice spreadsheet (.ods), not CSV. In LibreOffice Calc choose File > Save As > "Text CSV (.csv)" with UTF-8 and pass that file.';
    return 'this is an Excel workbook (.xlsx), not CSV. In Excel choose "Save As" > "CSV UTF-8" and pass that file.';
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))
    return 'this is an old Excel workbook (.xls), not CSV. In Excel choose "Save As" > "CSV UTF-8" and pass that file.';
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

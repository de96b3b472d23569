import { writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A minimal .xlsx (one sheet, no styles, no shared strings) around the sheet XML a test gives: a workbook whose rows
 * hold what no spreadsheet program would write (a damaged stream's text, a hostile cell of millions of characters).
 * `afterSheetData`: what follows the rows (`<mergeCells>`). Its parts are deflated, as in a real workbook, so a long run of one character stays a file of kilobytes.
 */
export function writeXlsx(path: string, sheetData: string, afterSheetData = ''): void {
  const parts: [string, string][] = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ],
    [
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="Estoque" sheetId="1"/></sheets></workbook>',
    ],
    [
      'xl/worksheets/sheet1.xml',
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData>${afterSheetData}</worksheet>`,
    ],
  ];
  writeFileSync(path, zipOf(parts));
}

/**
 * A minimal .ods (the mimetype, content.xml with one sheet named `sheet`) around the rows a test gives, as
 * `<table:table-row>` elements: rows repeated, cells repeated or spanning, text runs of `<text:s>`, what no
 * spreadsheet program writes. `beforeTable`: tables before it (other sheets); `settings`: a settings.xml; its parts
 * deflated as writeXlsx's.
 */
export function writeOds(
  path: string,
  rows: string,
  options: { sheet?: string; beforeTable?: string; settings?: string } = {},
): void {
  const namespaces =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  writeFileSync(
    path,
    zipOf([
      ['mimetype', 'application/vnd.oasis.opendocument.spreadsheet'],
      [
        'content.xml',
        `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${namespaces} office:version="1.3"><office:body><office:spreadsheet>${options.beforeTable ?? ''}<table:table table:name="${options.sheet ?? 'Estoque'}">${rows}</table:table></office:spreadsheet></office:body></office:document-content>`,
      ],
      ...(options.settings === undefined ? [] : [['settings.xml', options.settings] as [string, string]]),
    ]),
  );
}

/** An OpenDocument text cell and number cell (`attributes`: more, such as `table:number-columns-repeated="3"`). */
export const odsText = (text: string, attributes = '') =>
  `<table:table-cell office:value-type="string"${attributes === '' ? '' : ` ${attributes}`}><text:p>${text}</text:p></table:table-cell>`;
export const odsNumber = (value: number, attributes = '') =>
  `<table:table-cell office:value-type="float" office:value="${value}"${attributes === '' ? '' : ` ${attributes}`}><text:p>${value}</text:p></table:table-cell>`;

/** An inline-string cell (`t="inlineStr"`) and a number cell, as a row's XML writes them. */
export const inlineCell = (reference: string, text: string) =>
  `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
export const numberCell = (reference: string, value: number) => `<c r="${reference}"><v>${value}</v></c>`;

/**
 * A zip of deflated entries: local headers, then the central directory and its end record. An OpenDocument file's
 * `mimetype` is stored as it is, first, where a reader looks for it.
 */
function zipOf(parts: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of parts) {
    const data = Buffer.from(text, 'utf8');
    const stored = name === 'mimetype';
    const packed = stored ? data : deflateRawSync(data);
    const fileName = Buffer.from(name, 'utf8');
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0, at + 2); // flags
      header.writeUInt16LE(stored ? 0 : 8, at + 4); // stored or deflated
      header.writeUInt32LE(0, at + 6); // time and date
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(fileName.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    locals.push(local, fileName, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    common(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

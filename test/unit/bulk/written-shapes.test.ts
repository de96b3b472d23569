import { describe, expect, it } from 'vitest';
import { filledShape, shapeOf, WrittenShapes } from '../../../src/bulk/written-shapes.js';

describe('shapeOf and filledShape', () => {
  it.each([
    ['52998224725', '529.982.247-25'],
    ['11222333000181', '11.222.333/0001-81'],
    ['52998224725', ' 529 982 247 25 '],
    ['A-1', '  A-1'],
    // Not the value's characters in order (another case): the cell is kept whole.
    ['ana@example.com', 'ANA@Example.com'],
  ])('keeps how %j was written as %j, and gives that cell back', (value, written) => {
    const shape = shapeOf(value, written);
    expect(shape).toBeDefined();
    expect(filledShape(shape!, value)).toBe(written);
  });

  it('keeps no shape of a cell with more than 64 characters besides the value', () => {
    expect(shapeOf('123', `${'.'.repeat(64)}123`)).toBeDefined();
    expect(shapeOf('123', `${'.'.repeat(65)}123`)).toBeUndefined();
  });

  it('fills no shape with a value of another length (two values of one hash in the duplicate index)', () => {
    expect(filledShape(shapeOf('52998224725', '529.982.247-25')!, '1114447773')).toBeUndefined();
  });
});

/** A document as row `index` writes it: digits, with dots and dash, or with spaces around, in turn. */
const writtenAs = (document: string, index: number) =>
  index % 3 === 0
    ? document
    : index % 3 === 1
      ? `${document.slice(0, 3)}.${document.slice(3, 6)}.${document.slice(6, 9)}-${document.slice(9)}`
      : ` ${document} `;

/** Each cell has two characters of its own before the digits: a shape of its own. */
const cellOfPlace = (place: number) =>
  `${String.fromCharCode(0x100 + (place % 64))}${String.fromCharCode(0x100 + Math.floor(place / 64))}123`;

describe('WrittenShapes', () => {
  it('gives back each place its own cell, in a file that changes how it writes the value on every row', () => {
    const shapes = new WrittenShapes();
    const documents = Array.from({ length: 1_000 }, (_, index) => String(10_000_000_000 + index * 7));
    documents.forEach((document, index) => shapes.note('document', index + 2, document, writtenAs(document, index)));
    documents.forEach((document, index) =>
      expect(shapes.writtenAt('document', index + 2, document)).toBe(writtenAs(document, index)),
    );
  });

  it('tells a cell apart from the shape of the row before when only where its punctuation stands differs', () => {
    const shapes = new WrittenShapes();
    const cells = ['529.982.247-25', '111.444.777-35', '11.144.477/735', '111.444.777-35', '11144477735 '];
    const values = ['52998224725', '11144477735', '11144477735', '11144477735', '11144477735'];
    cells.forEach((cell, index) => shapes.note('document', index + 2, values[index]!, cell));
    cells.forEach((cell, index) => expect(shapes.writtenAt('document', index + 2, values[index]!)).toBe(cell));
  });

  it('keeps each kind of value apart, and knows nothing of a place without a cell (JSON)', () => {
    const shapes = new WrittenShapes();
    shapes.note('document', 2, '52998224725', '529.982.247-25');
    shapes.note('SKU', 2, 'A-1', ' A-1 ');
    shapes.note('document', 3, '11144477735', undefined);
    expect(shapes.writtenAt('document', 2, '52998224725')).toBe('529.982.247-25');
    expect(shapes.writtenAt('SKU', 2, 'A-1')).toBe(' A-1 ');
    expect(shapes.writtenAt('document', 3, '11144477735')).toBeUndefined();
    expect(shapes.writtenAt('e-mail', 2, 'a@x.com')).toBeUndefined();
  });

  it('keeps at most 4,096 ways of writing values in one file: past them, a cell is not kept', () => {
    const shapes = new WrittenShapes();
    for (let place = 0; place < 4_200; place++)
      shapes.note('document', place, '123', place === 0 ? '123' : cellOfPlace(place));
    expect(shapes.writtenAt('document', 4_095, '123')).toBe(cellOfPlace(4_095));
    expect(shapes.writtenAt('document', 4_096, '123')).toBeUndefined();
  });
});

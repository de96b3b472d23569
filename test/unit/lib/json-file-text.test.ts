/** The text of a JSON file a user names, whatever Notepad saved it as: UTF-16 by its BOM or its zero bytes, UTF-8. */
import { describe, expect, it } from 'vitest';
import { jsonFileText, utf16Text } from '../../../src/lib/json-file-text.js';

const json = '{"Número":"customerRegistrationAddress.number"}';

describe('jsonFileText', () => {
  it.each([
    ['UTF-16 LE with a BOM', Buffer.from(`\ufeff${json}`, 'utf16le')],
    ['UTF-16 BE with a BOM', Buffer.from(`\ufeff${json}`, 'utf16le').swap16()],
    ['UTF-16 LE without a BOM', Buffer.from(json, 'utf16le')],
    ['UTF-16 BE without a BOM', Buffer.from(json, 'utf16le').swap16()],
    ['UTF-8 with a BOM', Buffer.from(`\ufeff${json}`, 'utf8')],
    ['UTF-8', Buffer.from(json, 'utf8')],
  ])('%s reads as the JSON written', (_, bytes) => {
    expect(jsonFileText(bytes)).toBe(json);
  });

  it('UTF-8 and Windows-1252 bytes are not taken for UTF-16', () => {
    expect(utf16Text(Buffer.from(json, 'utf8'))).toBeUndefined();
    expect(utf16Text(Buffer.from(json, 'latin1'))).toBeUndefined();
    expect(utf16Text(Buffer.alloc(0))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { forbiddenCharacter } from '../../../src/domain/invisible-characters.js';
import { printable } from '../../../src/lib/printable.js';

describe('forbiddenCharacter', () => {
  it.each([
    ['Ana\u0000Maria', 'U+0000', 4, false],
    ['SKU\u0085', 'U+0085', 4, false],
    ['SKU\u202E1', 'U+202E', 4, false],
    ['a\u200Bb', 'U+200B', 2, false],
    ['a\u2028b', 'U+2028', 2, false],
    ['😀\u001B', 'U+001B', 2, false],
    ['Ana\uD800', 'U+D800', 4, true],
    ['\uDC00x', 'U+DC00', 1, true],
    // Shown as nothing or a blank: maria\u00AD@x.com is another e-mail than the maria@x.com on the screen.
    ['maria\u00AD@x.com', 'U+00AD', 6, false],
    ['Ma\u034Fria', 'U+034F', 3, false],
    ['Ana\u3164', 'U+3164', 4, false],
    ['\u2800Ana', 'U+2800', 1, false],
    ['a\uFFA0', 'U+FFA0', 2, false],
  ])('%j → %s at %i', (text, codePoint, position, lone) => {
    expect(forbiddenCharacter(text)).toEqual({ codePoint, position, lone });
  });

  it.each(['Açúcar & Café São João', 'Bloco B\r\nApto 12', 'a\tb', '😀', 'Ñandú – “ok”', '❤️ Loja', 'Rua 1º'])(
    '%j is fine',
    (text) => {
      expect(forbiddenCharacter(text)).toBeUndefined();
    },
  );
});

describe('printable', () => {
  it('escapes controls, bidi and zero-width characters; keeps accents and emoji', () => {
    expect(printable('a\u001B]0;t\u0007\u202Eb\u200B\r\n\tç😀\uD800')).toBe(
      'a\\u{1B}]0;t\\u{7}\\u{202E}b\\u{200B}\\r\\n\\tç😀\\u{D800}',
    );
  });
});

/** UTF-8 text converted to UTF-8 a second time (`ConceiÃ§Ã£o`): found, undone for the message, never in real names. */
import { describe, expect, it } from 'vitest';
import { doubledUtf8Accent, undoubledWord } from '../../../../src/io/input/brazilian-text.js';

/** What a program does that reads UTF-8 bytes as Windows-1252 and writes them as UTF-8 again. */
function doubled(text: string): string {
  return new TextDecoder('windows-1252').decode(new TextEncoder().encode(text));
}

describe('doubledUtf8Accent and undoubledWord', () => {
  it.each(['Conceição', 'Açúcar & Café', 'JOÃO DA SILVA', 'ÂNGELO', 'Ávila', 'Nº 12', 'Ribeirão', 'ÍNDIO', 'Ônibus'])(
    '%s, made UTF-8 twice, is found and undone',
    (word) => {
      const garbled = doubled(word);
      expect(doubledUtf8Accent(`x,${garbled}`)).toBeGreaterThan(0);
      expect(undoubledWord(garbled)).toBe(word);
    },
  );

  it.each(['SÃO PAULO', 'JOÃO', 'ÂNGELO', 'MÃE', 'IRMÃ', 'CAMPOS DO JORDÃO;SP', 'Ã', 'Â', 'São João', '€ 12,50'])(
    '%s (Brazilian text as it is) is not taken for doubled',
    (text) => {
      expect(doubledUtf8Accent(text)).toBe(-1);
    },
  );
});

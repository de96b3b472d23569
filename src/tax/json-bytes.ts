import { moneyText } from '../domain/tax/scaled.js';

/**
 * JSON written straight into bytes: encoded fragments, JSON strings and money from whole centavos, with no string
 * built in between (the callback's answer, written as it is computed). One writer is reused from answer to answer;
 * `bytes()` hands out a copy.
 */
export class JsonBytes {
  private buffer = new Uint8Array(32_768);
  private length = 0;

  /** Starts a new text. */
  clear(): void {
    this.length = 0;
  }

  /** Bytes already encoded (the fixed parts of a text, encoded once). */
  fragment(encoded: Uint8Array): void {
    this.room(encoded.length);
    this.buffer.set(encoded, this.length);
    this.length += encoded.length;
  }

  /** Text known to be printable ASCII with nothing to escape (digits, a checked NCM). */
  ascii(text: string): void {
    this.room(text.length);
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < text.length; index++) buffer[at++] = text.charCodeAt(index);
    this.length = at;
  }

  /** A JSON string, quoted and escaped as JSON.stringify writes it, in UTF-8. */
  string(text: string): void {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      // Outside printable ASCII, or a quote or backslash: JSON.stringify's escapes, then UTF-8.
      if (code < 32 || code > 126 || code === 34 || code === 92) {
        this.fragment(Buffer.from(JSON.stringify(text), 'utf8'));
        return;
      }
    }
    this.room(text.length + 2);
    this.buffer[this.length++] = 34;
    this.ascii(text);
    this.buffer[this.length++] = 34;
  }

  /** Whole centavos as money text with two decimals (`-0.05`, `1234.50`), as moneyText writes them. */
  money(centavos: number): void {
    // Most amounts are under 2^31 centavos (21 million reais): their digits in 32-bit integer arithmetic.
    if (!(centavos >= 0 && centavos <= 2_147_483_647)) {
      this.ascii(moneyText(centavos));
      return;
    }
    let rest = centavos | 0;
    const digits = digitCount(rest);
    this.room(digits + 1);
    const buffer = this.buffer;
    // Written from the last digit back: two decimals, the point, the whole part (at least its 0).
    let at = this.length + digits + 1;
    this.length = at;
    let quotient = (rest / 10) | 0;
    buffer[--at] = 48 + rest - quotient * 10;
    rest = quotient;
    quotient = (rest / 10) | 0;
    buffer[--at] = 48 + rest - quotient * 10;
    rest = quotient;
    buffer[--at] = 46;
    do {
      quotient = (rest / 10) | 0;
      buffer[--at] = 48 + rest - quotient * 10;
      rest = quotient;
    } while (rest > 0);
  }

  /** A copy of the bytes written since clear(). */
  bytes(): Buffer {
    const copy = Buffer.allocUnsafe(this.length);
    copy.set(this.buffer.subarray(0, this.length));
    return copy;
  }

  private room(needed: number): void {
    if (this.length + needed <= this.buffer.length) return;
    const larger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + needed));
    larger.set(this.buffer.subarray(0, this.length));
    this.buffer = larger;
  }
}

/** The digits of a money text of 0 to 2^31 − 1 centavos: at least three (`0.05`). */
function digitCount(centavos: number): number {
  let digits = 3;
  for (let power = 1_000; digits < 10 && centavos >= power; power *= 10) digits++;
  return digits;
}

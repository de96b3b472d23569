import { moneyText } from '../domain/tax/scaled.js';

/** Room for a dozen answers of 50 items: a slab is allocated that rarely, and kept alive by the answers in it. */
const slabSize = 131_072;
/** Fragments up to this length are copied byte by byte: TypedArray#set costs more than the copy below it. */
const shortFragment = 32;

/**
 * JSON written straight into bytes: encoded fragments, JSON strings and money from whole centavos, with no string
 * built in between (the callback's answer, written as it is computed). Texts are written one after another into a
 * slab, as Node's own Buffer pool hands out small buffers: `bytes()` hands out the text in place, a view that no
 * later text overwrites, so an answer costs neither an allocation nor a copy (each was 5–10% of a cart's CPU, with
 * the garbage collector's share of 13 KB external buffers). A slab that fills is left to the answers still in it.
 */
export class JsonBytes {
  private slab = Buffer.allocUnsafeSlow(slabSize);
  /** Where the text being written begins: what lies before it was handed out, or is free. */
  private start = 0;
  /** Where the next byte goes. */
  private end = 0;

  /** Starts a new text (dropping a text begun and not handed out). */
  clear(): void {
    this.end = this.start;
  }

  /** Bytes already encoded (the fixed parts of a text, encoded once). */
  fragment(encoded: Uint8Array): void {
    const length = encoded.length;
    this.room(length);
    const slab = this.slab;
    let at = this.end;
    if (length > shortFragment) slab.set(encoded, at);
    else for (let index = 0; index < length; index++) slab[at + index] = encoded[index] as number;
    at += length;
    this.end = at;
  }

  /** Text known to be printable ASCII with nothing to escape (digits, a checked NCM). */
  ascii(text: string): void {
    this.room(text.length);
    const slab = this.slab;
    let at = this.end;
    for (let index = 0; index < text.length; index++) slab[at++] = text.charCodeAt(index);
    this.end = at;
  }

  /** `length` bytes of printable ASCII with nothing to escape from `source` at `start` (an NCM's digits). */
  copied(source: Uint8Array, start: number, length: number): void {
    this.room(length);
    const slab = this.slab;
    let at = this.end;
    for (let index = start; index < start + length; index++) slab[at++] = source[index] as number;
    this.end = at;
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
    this.slab[this.end++] = 34;
    this.ascii(text);
    this.slab[this.end++] = 34;
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
    const slab = this.slab;
    // Written from the last digit back: two decimals, the point, the whole part (at least its 0).
    let at = this.end + digits + 1;
    this.end = at;
    let quotient = (rest / 10) | 0;
    slab[--at] = 48 + rest - quotient * 10;
    rest = quotient;
    quotient = (rest / 10) | 0;
    slab[--at] = 48 + rest - quotient * 10;
    rest = quotient;
    slab[--at] = 46;
    do {
      quotient = (rest / 10) | 0;
      slab[--at] = 48 + rest - quotient * 10;
      rest = quotient;
    } while (rest > 0);
  }

  /** The bytes written since clear(), handed out in place: the writer never writes over them again. */
  bytes(): Buffer {
    const text = this.slab.subarray(this.start, this.end);
    // The next text starts on an 8-byte boundary, as Node's pool aligns its buffers.
    this.start = this.end = Math.min(this.slab.length, (this.end + 7) & ~7);
    return text;
  }

  /** Room for `needed` more bytes: else the text begun moves to a new slab, the old one left to its answers. */
  private room(needed: number): void {
    if (this.end + needed <= this.slab.length) return;
    const begun = this.slab.subarray(this.start, this.end);
    const slab = Buffer.allocUnsafeSlow(Math.max(slabSize, 2 * (begun.length + needed)));
    slab.set(begun);
    this.slab = slab;
    this.start = 0;
    this.end = begun.length;
  }
}

/** The digits of a money text of 0 to 2^31 − 1 centavos: at least three (`0.05`). */
function digitCount(centavos: number): number {
  let digits = 3;
  for (let power = 1_000; digits < 10 && centavos >= power; power *= 10) digits++;
  return digits;
}

/**
 * Exact decimal arithmetic for taxes: a fraction of two BigInts, so that no centavo is lost to binary floating
 * point and no library is needed on the callback's path (a cart of 50 items costs about a thousand of these
 * operations). Rounding is half to even, as ABNT NBR 5891 rounds. Pure.
 */
const powersOfTen = Array.from({ length: 41 }, (_, power) => 10n ** BigInt(power));
const tenTo = (power: number): bigint => powersOfTen[power] ?? 10n ** BigInt(power);

export class Exact {
  private readonly numerator: bigint;
  /** Always above 0. */
  private readonly denominator: bigint;
  private constructor(numerator: bigint, denominator: bigint) {
    this.numerator = numerator;
    this.denominator = denominator;
  }

  /** From decimal text (`-1234.5`, `45.90`) or a number, read through its shortest decimal text. */
  static of(value: string | number | Exact): Exact {
    if (value instanceof Exact) return value;
    const text = typeof value === 'number' ? String(value) : value.trim();
    const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
    if (match === null || (match[2] === '' && (match[3] ?? '') === '')) throw new RangeError(`not a decimal: ${text}`);
    const decimals = match[3] ?? '';
    const magnitude = BigInt(`${match[2] || '0'}${decimals}`);
    return new Exact(match[1] === '-' ? -magnitude : magnitude, tenTo(decimals.length));
  }

  plus(other: Exact | string | number): Exact {
    const that = Exact.of(other);
    return new Exact(
      this.numerator * that.denominator + that.numerator * this.denominator,
      this.denominator * that.denominator,
    );
  }

  minus(other: Exact | string | number): Exact {
    const that = Exact.of(other);
    return this.plus(new Exact(-that.numerator, that.denominator));
  }

  times(other: Exact | string | number): Exact {
    const that = Exact.of(other);
    return new Exact(this.numerator * that.numerator, this.denominator * that.denominator);
  }

  div(other: Exact | string | number): Exact {
    const that = Exact.of(other);
    if (that.numerator === 0n) throw new RangeError('division by zero');
    const sign = that.numerator < 0n ? -1n : 1n;
    return new Exact(this.numerator * that.denominator * sign, this.denominator * that.numerator * sign);
  }

  gt(other: Exact | string | number): boolean {
    const that = Exact.of(other);
    return this.numerator * that.denominator > that.numerator * this.denominator;
  }

  /** The larger of the two. */
  static max(left: Exact | string | number, right: Exact | string | number): Exact {
    return Exact.of(left).gt(right) ? Exact.of(left) : Exact.of(right);
  }

  /** The value as a reduced fraction of safe integers (for scaled.ts), or undefined when a part is larger. */
  ratio(): { numerator: number; denominator: number } | undefined {
    let [larger, smaller] = [this.numerator < 0n ? -this.numerator : this.numerator, this.denominator];
    while (smaller !== 0n) [larger, smaller] = [smaller, larger % smaller];
    const numerator = Number(this.numerator / larger);
    const denominator = Number(this.denominator / larger);
    return Number.isSafeInteger(numerator) && Number.isSafeInteger(denominator)
      ? { numerator, denominator }
      : undefined;
  }

  /** Rounded to `places` decimals, half to even. */
  toDecimalPlaces(places: number): Exact {
    const scale = tenTo(places);
    const negative = this.numerator < 0n;
    const scaled = (negative ? -this.numerator : this.numerator) * scale;
    let quotient = scaled / this.denominator;
    const twiceRemainder = (scaled % this.denominator) * 2n;
    if (twiceRemainder > this.denominator || (twiceRemainder === this.denominator && quotient % 2n === 1n)) quotient++;
    return new Exact(negative ? -quotient : quotient, scale);
  }

  /** Rounded to centavos, half to even. */
  centavos(): Exact {
    return this.toDecimalPlaces(2);
  }

  /** Decimal text with exactly `places` decimals (rounded half to even). */
  toFixed(places: number): string {
    const rounded = this.toDecimalPlaces(places);
    const negative = rounded.numerator < 0n;
    const digits = (negative ? -rounded.numerator : rounded.numerator).toString().padStart(places + 1, '0');
    const whole = digits.slice(0, digits.length - places);
    const fraction = places === 0 ? '' : `.${digits.slice(digits.length - places)}`;
    return `${negative ? '-' : ''}${whole}${fraction}`;
  }

  /** The shortest decimal text of the value: exact where it ends within 20 decimals, else rounded there. */
  toString(): string {
    for (let places = 0; places <= 20; places++) {
      const scale = tenTo(places);
      if ((this.numerator * scale) % this.denominator === 0n) return this.toFixed(places);
    }
    return this.toFixed(20).replace(/\.?0+$/, '');
  }
}

/**
 * The tax arithmetic's exact fractions, at their edges and held to decimal.js (a maintained decimal library, the
 * reference here) on random amounts, rates and chains of operations, with rounding half to even.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Exact } from '../../../src/domain/tax/exact.js';

const Reference = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });

describe('Exact', () => {
  it.each([
    ['0.125', '0.12'],
    ['0.135', '0.14'],
    ['0.1251', '0.13'],
    ['-0.125', '-0.12'],
    ['-0.135', '-0.14'],
    ['2.5', '2.50'],
    ['0.005', '0.00'],
    ['0.015', '0.02'],
  ])('rounds %s to centavos as %s (half to even)', (text, rounded) => {
    expect(Exact.of(text).centavos().toFixed(2)).toBe(rounded);
  });

  it('reads decimal text and numbers exactly, and refuses what is not a decimal', () => {
    expect(Exact.of('45.90').times(10).toString()).toBe('459');
    expect(Exact.of(0.1).plus(0.2).toString()).toBe('0.3');
    expect(Exact.of('.5').toString()).toBe('0.5');
    expect(() => Exact.of('1e3')).toThrow('not a decimal: 1e3');
    expect(() => Exact.of('')).toThrow('not a decimal');
    expect(() => Exact.of(1).div(0)).toThrow('division by zero');
  });

  it('divides, compares and prints a fraction that does not end', () => {
    const third = Exact.of(1).div(3);
    expect(third.toDecimalPlaces(6).toString()).toBe('0.333333');
    expect(third.toString()).toBe('0.33333333333333333333');
    expect(Exact.of(2).div(-4).toString()).toBe('-0.5');
    expect(Exact.max(third, '0.3').toFixed(4)).toBe('0.3333');
    expect(Exact.of('0.3').gt(third)).toBe(false);
  });

  it('agrees with decimal.js on 5,000 random chains of tax arithmetic', () => {
    let seed = 20_261_128;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const amount = () => (random() * 10 ** Math.floor(random() * 7)).toFixed(Math.floor(random() * 5));
    for (let round = 0; round < 5_000; round++) {
      const [price, quantity, rate, margin, internal] = [
        amount(),
        amount(),
        (random() * 30).toFixed(2),
        amount(),
        (random() * 25).toFixed(2),
      ];
      const ours = Exact.of(price)
        .times(quantity)
        .plus(margin)
        .times(Exact.of(1).minus(Exact.of(rate).div(100)))
        .div(Exact.of(1).minus(Exact.of(internal).div(100)))
        .minus(price);
      const reference = new Reference(price)
        .times(quantity)
        .plus(margin)
        .times(new Reference(1).minus(new Reference(rate).div(100)))
        .div(new Reference(1).minus(new Reference(internal).div(100)))
        .minus(price);
      expect(ours.toFixed(2), `${price} ${quantity} ${rate} ${margin} ${internal}`).toBe(
        reference.toFixed(2, Decimal.ROUND_HALF_EVEN),
      );
      expect(ours.toDecimalPlaces(6).toString()).toBe(reference.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toString());
    }
  });
});

/** Medusa's unrounded major units to minor units, rounded once half up as a payment provider charges. */
import { describe, expect, it } from 'vitest';
import { toMinor } from '../../../adapters/medusa/money.js';

describe('toMinor', () => {
  it('rounds half up to the minor unit of the currency', () => {
    expect(toMinor(220.964, 'usd')).toBe(22096);
    expect(toMinor(67.473, 'USD')).toBe(6747);
    expect(toMinor(0.125, 'USD')).toBe(13);
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(toMinor('24.99', 'USD')).toBe(2499);
    expect(toMinor(1500.5, 'JPY')).toBe(1501);
    expect(toMinor(1.2345, 'KWD')).toBe(1235);
    expect(toMinor(1e-7, 'USD')).toBe(0);
    expect(toMinor(-7.005, 'USD')).toBe(-701);
  });

  it('refuses what is not an amount', () => {
    expect(() => toMinor('abc', 'USD')).toThrow(TypeError);
    expect(() => toMinor(undefined, 'USD')).toThrow(TypeError);
  });
});

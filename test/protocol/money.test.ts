import { describe, expect, it } from 'vitest';
import { currencyExponent, fromMinorUnits, toMinorUnits } from '../../adapters/kit/money.js';

describe('money in minor units', () => {
  it('knows ISO 4217 exponents', () => {
    expect([currencyExponent('USD'), currencyExponent('JPY'), currencyExponent('KWD')]).toEqual([2, 0, 3]);
  });

  it('converts decimal strings without floating point', () => {
    expect(toMinorUnits('19.99', 'USD')).toBe(1999);
    expect(toMinorUnits('0.1', 'USD')).toBe(10);
    expect(toMinorUnits('1.005', 'KWD')).toBe(1005);
    expect(toMinorUnits('1500', 'JPY')).toBe(1500);
    expect(toMinorUnits('-2.50', 'USD')).toBe(-250);
    expect(toMinorUnits('4.20', 'JPY'.replace('JPY', 'EUR'))).toBe(420);
    expect(toMinorUnits('90071992547409.91', 'USD')).toBe(9007199254740991);
  });

  it('rejects what is not an exact amount', () => {
    expect(() => toMinorUnits('1.999', 'USD')).toThrow(/more decimals/);
    expect(() => toMinorUnits('1.5', 'JPY')).toThrow(/more decimals/);
    expect(() => toMinorUnits('1e3', 'USD')).toThrow(/not a decimal/);
    expect(() => toMinorUnits('900719925474099.99', 'USD')).toThrow(/out of range/);
  });

  it('formats minor units back', () => {
    expect(fromMinorUnits(1999, 'USD')).toBe('19.99');
    expect(fromMinorUnits(5, 'USD')).toBe('0.05');
    expect(fromMinorUnits(-250, 'USD')).toBe('-2.50');
    expect(fromMinorUnits(1500, 'JPY')).toBe('1500');
    expect(fromMinorUnits(1005, 'KWD')).toBe('1.005');
  });
});

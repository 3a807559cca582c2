import { describe, expect, it } from 'vitest';
import { fromMinorUnits, rescaleMinorUnits, roundToMinorUnits } from '../../../adapters/kit/money.js';

describe('adapter kit: money', () => {
  it('rounds a decimal with more digits than the currency has, half away from zero', () => {
    expect(roundToMinorUnits('26.505', 'USD')).toBe(2651);
    expect(roundToMinorUnits('26.504', 'USD')).toBe(2650);
    expect(roundToMinorUnits('-7.005', 'USD')).toBe(-701);
    expect(roundToMinorUnits('1500.5', 'JPY')).toBe(1501);
    expect(roundToMinorUnits('1.2345', 'KWD')).toBe(1235);
    expect(roundToMinorUnits('26.5', 'USD')).toBe(2650);
    expect(roundToMinorUnits('.5', 'USD')).toBe(50);
    expect(roundToMinorUnits('5.', 'USD')).toBe(500);
    expect(Object.is(roundToMinorUnits('-0.001', 'USD'), 0)).toBe(true);
  });

  it('refuses what is not a decimal, and amounts beyond exact integers', () => {
    for (const text of ['', '.', 'abc', '1e3', '1,5', '--1']) expect(() => roundToMinorUnits(text, 'USD')).toThrow(/not a decimal/);
    expect(() => roundToMinorUnits('900719925474099.99', 'USD')).toThrow(/out of range/);
  });

  it('rescales minor units between exponents', () => {
    expect(rescaleMinorUnits(1999, 2, 3)).toBe(19990);
    expect(rescaleMinorUnits(1995, 2, 1)).toBe(200);
    expect(rescaleMinorUnits(-1995, 2, 1)).toBe(-200);
    expect(rescaleMinorUnits(1994, 2, 1)).toBe(199);
    expect(rescaleMinorUnits(150, 0, 0)).toBe(150);
  });

  it("writes minor units with the currency's digits, or a store's own", () => {
    expect(fromMinorUnits(1999, 'USD')).toBe('19.99');
    expect(fromMinorUnits(1999, 'USD', 3)).toBe('19.990');
    expect(fromMinorUnits(1999, 'USD', 0)).toBe('20');
    expect(fromMinorUnits(-5, 'USD', 2)).toBe('-0.05');
    expect(fromMinorUnits(1500, 'JPY', 2)).toBe('1500.00');
    expect(fromMinorUnits(1250, 'KWD')).toBe('1.250');
  });
});

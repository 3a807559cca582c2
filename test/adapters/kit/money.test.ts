import { describe, expect, it } from 'vitest';
import { currencyExponent, fromMinorUnits, rescaleMinorUnits, roundToMinorUnits, toMinorUnits } from '../../../adapters/kit/money.js';

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

  it("reads a plain decimal exactly as the pattern -?\\d+(\\.\\d+)? with the currency's digits says", () => {
    // The rule as first written, as a regular expression: the character-by-character reading must agree with it everywhere.
    const byPattern = (decimal: string, currency: string): number => {
      const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
      if (!match) throw new Error(`not a decimal amount: ${JSON.stringify(decimal)}`);
      const [, sign, whole, fraction = ''] = match;
      const exponent = currencyExponent(currency);
      if (fraction.replace(/0+$/, '').length > exponent) throw new Error(`${decimal} has more decimals than ${currency} allows`);
      const minor = Number(`${whole}${fraction.padEnd(exponent, '0').slice(0, exponent)}`);
      if (!Number.isSafeInteger(minor)) throw new Error(`${decimal} is out of range`);
      return sign ? -minor : minor;
    };
    const outcome = (read: () => number) => {
      try {
        return { value: read() };
      } catch (error) {
        return { message: (error as Error).message };
      }
    };
    const texts = [
      ...['35.00', '4.50', '0', '-0', '-0.00', '007.10', ' 12.3\n', '\t-1.5 ', '19.990', '19.991', '1.250', '1.2501', '1000'],
      ...['', '-', '.', '.5', '5.', '-.5', '+1', '--1', '1.2.3', '1,5', '1e3', '1 000', '١٢', '12a', 'a12', '1.-2', '0x10'],
      ...['900719925474099.91', '90071992547409.91', '-90071992547409.91', `${'9'.repeat(400)}.00`],
    ];
    const chars = ['0', '1', '9', '.', '-', ' ', 'a', '+', '/', ':'];
    for (let n = 0; n < 6000; n++)
      texts.push(Array.from({ length: 1 + (n % 7) }, (_, i) => chars[(n * 7 + i * 13 + (n >> i)) % chars.length]).join(''));
    for (const text of texts)
      for (const currency of ['USD', 'JPY', 'KWD'])
        expect(
          outcome(() => toMinorUnits(text, currency)),
          `${JSON.stringify(text)} ${currency}`,
        ).toEqual(outcome(() => byPattern(text, currency)));
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

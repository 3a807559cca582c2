import { describe, expect, it } from 'vitest';
import { convertMinor, priceBounds } from '../../../src/capabilities/catalog/price-filter.js';
import { regionCode, toAlpha2 } from '../../../src/protocol/country-code.js';

describe('price filter conversion', () => {
  it('converts exactly between exponents, widening to whole minor units', () => {
    // 1 EUR = 1.08 USD: 10.01 EUR = 10.8108 USD.
    expect(convertMinor(1001, 'EUR', 'USD', 1.08, 'down')).toBe(1081);
    expect(convertMinor(1001, 'EUR', 'USD', 1.08, 'up')).toBe(1082);
    // Exact results are not widened: 0.1 + 0.2 style float error would show here.
    expect(convertMinor(3000, 'EUR', 'USD', 1.1, 'up')).toBe(3300);
    // JPY has no minor unit, KWD has three.
    expect(convertMinor(3000, 'JPY', 'USD', 0.0067, 'up')).toBe(2010);
    expect(convertMinor(1000, 'USD', 'JPY', 150.5, 'down')).toBe(1505);
    expect(convertMinor(1000, 'USD', 'KWD', 0.307, 'down')).toBe(3070);
    expect(convertMinor(1, 'USD', 'EUR', 1e-7, 'up')).toBe(1);
  });

  it('passes store currencies through, converts with a rate, ignores without one', () => {
    expect(priceBounds({ max: 500 }, undefined, ['USD'], {})).toEqual({ bounds: { max: 500, currency: 'USD' } });
    expect(priceBounds({ max: 500 }, 'CAD', ['USD', 'CAD'], {})).toEqual({ bounds: { max: 500, currency: 'CAD' } });
    expect(priceBounds({ min: 999, max: 1001 }, 'EUR', ['USD'], { EUR: 1.5 }).bounds).toEqual({ min: 1498, max: 1502, currency: 'USD' });
    const ignored = priceBounds({ max: 500 }, 'GBP', ['USD'], { EUR: 1.5 });
    expect(ignored.bounds).toBeUndefined();
    expect(ignored.message).toMatchObject({ type: 'warning', code: 'filter_ignored', path: '$.filters.price' });
  });
});

describe('destination country', () => {
  it('reads alpha-2 in any case, alpha-3 and English names', () => {
    expect(['US', 'us', 'USA', 'United States of America', ' united states '].map(toAlpha2)).toEqual(['US', 'US', 'US', 'US', 'US']);
    expect(toAlpha2('Canada')).toBe('CA');
  });

  it('names no country for nonsense', () => {
    expect(['ZZ', 'XYZ', 'Narnia', ''].map(toAlpha2)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('drops the country prefix of a region code', () => {
    expect(regionCode('us-il', 'US')).toBe('IL');
    expect(regionCode(' on ', 'CA')).toBe('ON');
    expect(regionCode('US-IL')).toBe('US-IL');
  });
});

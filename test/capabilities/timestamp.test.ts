/** isoTimestamp writes what Date's toISOString writes, for any time Date can hold. */
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../src/capabilities/timestamp.js';

const DAY = 86_400_000;

describe('isoTimestamp', () => {
  it("matches toISOString around midnights, leap days, the epoch and Date's limits, in any order", () => {
    const times = [0, -1, 1, DAY - 1, DAY, -DAY, Date.parse('2024-02-29T23:59:59.999Z'), Date.parse('2026-11-28T05:45:00.859Z')];
    times.push(8.64e15, -8.64e15, 8.64e15 - 1, 253402300800000 /* year 10000 */, -62198755200001 /* year -1 */);
    for (let i = 0; i < 5000; i++)
      times.push(Math.round((Math.random() * 2 - 1) * 8.64e15), Date.now() + Math.round(Math.random() * 30 * DAY));
    for (const ms of times) expect(isoTimestamp(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('does with fractions and invalid times what Date does', () => {
    expect(isoTimestamp(1.7)).toBe(new Date(1.7).toISOString());
    expect(isoTimestamp(-0.5)).toBe(new Date(-0.5).toISOString());
    for (const bad of [Number.NaN, 8.64e15 + 1, Infinity]) expect(() => isoTimestamp(bad)).toThrow(RangeError);
  });
});

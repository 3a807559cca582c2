/** The derived line status (spec part 2 §3), evaluated in the spec's order. */
import { describe, expect, it } from 'vitest';
import { lineStatus } from '../../../src/capabilities/order/order-shape.js';

const status = (original: number, total: number, fulfilled: number) => lineStatus({ original, total, fulfilled });

describe('line status', () => {
  it('is removed when nothing is left on the line, whatever was fulfilled before', () => {
    expect(status(2, 0, 0)).toBe('removed');
    expect(status(2, 0, 2)).toBe('removed');
  });

  it('is fulfilled when everything left was handed over', () => {
    expect(status(3, 3, 3)).toBe('fulfilled');
    expect(status(3, 2, 2)).toBe('fulfilled'); // one unit returned and received
  });

  it('is partial when some but not all of it was handed over', () => {
    expect(status(3, 3, 1)).toBe('partial');
    expect(status(3, 2, 1)).toBe('partial');
  });

  it('is processing when nothing was handed over yet', () => {
    expect(status(3, 3, 0)).toBe('processing');
    expect(status(3, 1, 0)).toBe('processing'); // reduced by an edit, still to ship
  });

  it('counts more fulfilled than the current total (a return not yet netted out) as fulfilled', () => {
    expect(status(3, 2, 3)).toBe('fulfilled');
  });
});

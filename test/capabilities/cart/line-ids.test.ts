import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignLineIds, newLineId } from '../../../src/capabilities/pricing/line-ids.js';

const req = (itemId: string, id?: string) => ({ ...(id !== undefined && { id }), item: { id: itemId } });

describe('line ids', () => {
  it('are random, 128 bits and never repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, newLineId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(Buffer.from(id.slice(3), 'base64url')).toHaveLength(16);
  });

  it('a named line keeps its id; an unnamed one takes the id of a line with its item; the rest are new', () => {
    const existing = [
      { id: 'a', itemId: 'roses' },
      { id: 'b', itemId: 'pot' },
      { id: 'c', itemId: 'roses' },
    ];
    const ids = assignLineIds([req('pot'), req('tulips', 'c'), req('roses'), req('roses'), req('roses', 'zzz'), req('pot', 'b')], existing);
    // pot without id: b is named later by another line, so it cannot be taken; a new id.
    expect(ids[1]).toBe('c');
    expect(ids[2]).toBe('a');
    expect(ids[5]).toBe('b');
    expect([ids[0], ids[3], ids[4]].every((id) => id!.startsWith('li_'))).toBe(true);
  });

  it('an id named twice goes to the first line only', () => {
    const ids = assignLineIds([req('roses', 'a'), req('roses', 'a')], [{ id: 'a', itemId: 'roses' }]);
    expect(ids[0]).toBe('a');
    expect(ids[1]).not.toBe('a');
  });

  it('always gives distinct ids, reusing only existing ones, and keeps every id an existing line names', () => {
    const items = fc.constantFrom('roses', 'pot', 'tulips', 'orchid');
    const existingArb = fc.uniqueArray(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), itemId: items }), {
      selector: (l) => l.id,
      maxLength: 5,
    });
    const requestedArb = fc.array(
      fc.record({ id: fc.option(fc.constantFrom('a', 'b', 'c', 'x'), { nil: undefined }), item: fc.record({ id: items }) }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(existingArb, requestedArb, (existing, requested) => {
        const ids = assignLineIds(requested, existing);
        expect(ids).toHaveLength(requested.length);
        expect(new Set(ids).size).toBe(ids.length);
        const known = new Set<string>(existing.map((l) => l.id));
        for (const id of ids) expect(known.has(id) || id.startsWith('li_')).toBe(true);
        const firstNaming = new Map<string, number>();
        requested.forEach((l, i) => l.id !== undefined && known.has(l.id) && !firstNaming.has(l.id) && firstNaming.set(l.id, i));
        for (const [id, i] of firstNaming) expect(ids[i]).toBe(id);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidPageTokenError } from '../../../adapters/contract.js';
import { SignedCursors } from '../../../adapters/kit/signed-cursor.js';

const offset = (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : undefined);
const cursors = new SignedCursors<number>('store-secret', 'test', offset);
const query = { text: 'roses', limit: 2 };

describe('adapter kit: signed cursors', () => {
  it('reads back what it wrote for the same binding', () => {
    const cursor = cursors.write(query, 40);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursors.read(cursor, { text: 'roses', limit: 2 })).toBe(40);
  });

  it('refuses a cursor replayed with another binding', () => {
    const cursor = cursors.write(query, 40);
    expect(() => cursors.read(cursor, { text: 'roses', limit: 3 })).toThrow(InvalidPageTokenError);
  });

  it('refuses an altered payload, an altered or respelled signature, and garbage', () => {
    const cursor = cursors.write(query, 40);
    const [data, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(4000)).toString('base64url');
    expect(() => cursors.read(`${forged}.${signature}`, query)).toThrow(InvalidPageTokenError);
    const last = signature.at(-1)!;
    // A last character that decodes to the same bytes (its spare bits differ) is still another cursor.
    const respelled = `${signature.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    expect(() => cursors.read(`${data}.${respelled}`, query)).toThrow(InvalidPageTokenError);
    expect(() => cursors.read(`${data}.${signature}x`, query)).toThrow(InvalidPageTokenError);
    for (const garbage of ['', 'bm9wZQ', '...', 'a.b.c']) expect(() => cursors.read(garbage, query)).toThrow(InvalidPageTokenError);
  });

  it('refuses a cursor signed with another secret or for another purpose', () => {
    const cursor = cursors.write(query, 40);
    expect(() => new SignedCursors('other-secret', 'test', offset).read(cursor, query)).toThrow(InvalidPageTokenError);
    expect(() => new SignedCursors('store-secret', 'other', offset).read(cursor, query)).toThrow(InvalidPageTokenError);
  });

  it("refuses a well-signed payload the adapter's check rejects", () => {
    const strings = new SignedCursors<unknown>('store-secret', 'test', (v) => v);
    const cursor = strings.write(query, 'not a number');
    expect(() => cursors.read(cursor, query)).toThrow(InvalidPageTokenError);
  });
});

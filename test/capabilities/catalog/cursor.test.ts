import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CURSOR_KEY_PURPOSE, queryBinding, readCursor, writeCursor } from '../../../src/capabilities/catalog/cursor.js';
import { settingsFromEnv } from '../../../src/config/env.js';
import { GatewaySecret } from '../../../src/config/gateway-secret.js';

const SECRET = 'x'.repeat(32);

describe('GATEWAY_SECRET', () => {
  it('is read from the environment and must be long enough, without echoing it', () => {
    expect(settingsFromEnv({ GATEWAY_SECRET: SECRET }).gatewaySecret).toBe(SECRET);
    expect(settingsFromEnv({}).gatewaySecret).toBeUndefined();
    let message = '';
    try {
      settingsFromEnv({ GATEWAY_SECRET: 'hunter2' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('GATEWAY_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)');
  });

  it('derives one stable key per purpose, and never shows itself', () => {
    const secret = GatewaySecret.from(SECRET);
    expect(secret.key('a').equals(GatewaySecret.from(SECRET).key('a'))).toBe(true);
    expect(secret.key('a').equals(secret.key('b'))).toBe(false);
    expect(secret.ephemeral).toBe(false);
    expect(JSON.stringify({ secret })).toBe('{"secret":"[redacted]"}');
    expect(inspect(secret)).not.toContain(SECRET);
  });

  it('without one, each process draws its own random key', () => {
    const a = GatewaySecret.from(undefined);
    expect(a.ephemeral).toBe(true);
    expect(a.key('a').equals(GatewaySecret.from(undefined).key('a'))).toBe(false);
  });
});

describe('cursor', () => {
  const key = GatewaySecret.from(SECRET).key(CURSOR_KEY_PURPOSE);
  const binding = queryBinding('shop', { text: 'roses', limit: 4 });

  it('round-trips the page token and the position in the page', () => {
    const cursor = writeCursor(key, binding, { pageToken: 'store-token', skip: 2 });
    expect(readCursor(key, binding, cursor)).toEqual({ pageToken: 'store-token', skip: 2 });
    expect(readCursor(key, binding, writeCursor(key, binding, { skip: 0 }))).toEqual({ skip: 0 });
  });

  it('is bound to the tenant and the query', () => {
    const cursor = writeCursor(key, binding, { skip: 1 });
    expect(() => readCursor(key, queryBinding('other-shop', { text: 'roses', limit: 4 }), cursor)).toThrow(/belongs to another search/);
    expect(() => readCursor(key, queryBinding('shop', { text: 'tulips', limit: 4 }), cursor)).toThrow(/belongs to another search/);
  });

  it('refuses anything it did not sign, even a well-formed state', () => {
    const forged = `${Buffer.from(JSON.stringify({ b: binding, s: 0 })).toString('base64url')}.${'A'.repeat(43)}`;
    const otherKey = GatewaySecret.from('y'.repeat(32)).key(CURSOR_KEY_PURPOSE);
    for (const cursor of [forged, writeCursor(otherKey, binding, { skip: 0 }), '..', 'a.b.c']) {
      expect(() => readCursor(key, binding, cursor), cursor).toThrow(expect.objectContaining({ status: 400, code: 'invalid_cursor' }));
    }
  });

  it('has one spelling: a signature differing only in the spare bits of its last character is refused', () => {
    const cursor = writeCursor(key, binding, { skip: 1 });
    const last = cursor.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 32 bytes in 43 characters: the last one carries 4 bits and 2 spare ones.
    const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(Buffer.from(cursor.slice(cursor.indexOf('.') + 1, -1) + twin, 'base64url')).toEqual(
      Buffer.from(cursor.slice(cursor.indexOf('.') + 1), 'base64url'),
    );
    expect(() => readCursor(key, binding, cursor.slice(0, -1) + twin)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
});

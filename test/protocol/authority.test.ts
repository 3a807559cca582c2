import { describe, expect, it } from 'vitest';
import { schemaUrlBindsTo } from '../../src/protocol/authority.js';
import { CAPABILITIES } from '../../src/protocol/capability-registry.js';

describe('authority binding of schema URLs', () => {
  it('accepts https on the reversed-name host', () => {
    expect(schemaUrlBindsTo('dev.proto.shopping.cart', 'https://proto.dev/schemas/shopping/cart.json')).toBe(true);
    expect(schemaUrlBindsTo('com.example.loyalty', 'https://example.com/schemas/loyalty.json')).toBe(true);
  });

  it('refuses other hosts, http, userinfo, IP literals and single labels', () => {
    expect(schemaUrlBindsTo('dev.proto.shopping.cart', 'https://evil.dev/cart.json')).toBe(false);
    expect(schemaUrlBindsTo('dev.proto.shopping.cart', 'http://proto.dev/cart.json')).toBe(false);
    expect(schemaUrlBindsTo('dev.proto.shopping.cart', 'https://user:pw@proto.dev/cart.json')).toBe(false);
    expect(schemaUrlBindsTo('dev.proto.shopping.cart', 'https://127.0.0.1/cart.json')).toBe(false);
    expect(schemaUrlBindsTo('localhost.cart', 'https://localhost/cart.json')).toBe(false);
    expect(schemaUrlBindsTo('dev.protocol.cart', 'https://proto.dev/cart.json')).toBe(false);
    expect(schemaUrlBindsTo('dev.proto.shopping.cart', 'not a url')).toBe(false);
  });

  it('holds for every capability this gateway publishes', () => {
    for (const [name, def] of Object.entries(CAPABILITIES)) expect(schemaUrlBindsTo(name, def.schema), name).toBe(true);
  });
});

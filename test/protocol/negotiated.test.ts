import { describe, expect, it } from 'vitest';
import type { PlatformProfile } from '../../schemas/profile.js';
import { CAPABILITY, type CapabilityName } from '../../src/protocol/capability-registry.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { negotiated } from '../../src/protocol/negotiated.js';
import { platformProfile } from '../helpers/platform.js';

const business = (names: CapabilityName[], supported_versions?: Record<string, string>) => ({
  capabilities: new Map(names.map((n) => [n, {}] as const)),
  config: { ...(supported_versions && { supported_versions }) },
  checkoutPaymentHandlers: { 'dev.proto.payments.sandbox': [{ id: 'sandbox', version: '2026-04-08' }] },
});
const profile = (capabilities: string[], version?: string) => platformProfile(capabilities, {}, version) as unknown as PlatformProfile;

describe('negotiation per (business, profile)', () => {
  it("answers bodies that are valid JSON with the caller's capabilities first, empty bodies included", () => {
    const n = negotiated(business([CAPABILITY.cart, CAPABILITY.order]), profile([CAPABILITY.cart]));
    const full = JSON.parse(n.envelope('success', CAPABILITY.cart, { id: 'cart_1', totals: [] }));
    expect(Object.keys(full)).toEqual(['proto', 'id', 'totals']);
    expect(full.proto).toEqual({
      version: '2026-04-08',
      status: 'success',
      capabilities: { [CAPABILITY.cart]: [{ version: '2026-04-08' }] },
    });
    expect(JSON.parse(n.envelope('error', CAPABILITY.cart, {}))).toEqual({ proto: { ...full.proto, status: 'error' } });
  });

  it('lists the capabilities relevant to the operation, and payment handlers on checkout answers', () => {
    const all = [
      CAPABILITY.cart,
      CAPABILITY.checkout,
      CAPABILITY.discount,
      CAPABILITY.fulfillment,
      CAPABILITY.order,
      CAPABILITY.catalogSearch,
    ];
    const n = negotiated(business(all), profile(all));
    const proto = (root: CapabilityName) => JSON.parse(n.envelope('success', root, {})).proto;
    expect(Object.keys(proto(CAPABILITY.checkout).capabilities).sort()).toEqual(
      [CAPABILITY.checkout, CAPABILITY.discount, CAPABILITY.fulfillment].sort(),
    );
    expect(proto(CAPABILITY.checkout).payment_handlers).toEqual({
      'dev.proto.payments.sandbox': [{ id: 'sandbox', version: '2026-04-08' }],
    });
    expect(Object.keys(proto(CAPABILITY.cart).capabilities).sort()).toEqual([CAPABILITY.cart, CAPABILITY.discount].sort());
    expect(proto(CAPABILITY.cart)).not.toHaveProperty('payment_handlers');
    expect(Object.keys(proto(CAPABILITY.order).capabilities)).toEqual([CAPABILITY.order]);
    expect(Object.keys(proto(CAPABILITY.catalogSearch).capabilities).sort()).toEqual(
      [CAPABILITY.catalogSearch, CAPABILITY.fulfillment].sort(),
    );
    expect(proto(CAPABILITY.catalogLookup).capabilities).toEqual({});
  });

  it('is decided once per business and profile, and separately for another business', () => {
    const platform = profile([CAPABILITY.cart, CAPABILITY.order]);
    const shop = business([CAPABILITY.cart]);
    expect(negotiated(shop, platform)).toBe(negotiated(shop, platform));
    const other = negotiated(business([CAPABILITY.order]), platform);
    expect([...other.active]).toEqual([CAPABILITY.order]);
    expect(other.key).not.toBe(negotiated(shop, platform).key);
  });

  it('refuses a profile version the business does not support, every time it is asked', () => {
    const old = profile([CAPABILITY.cart], '2025-01-01');
    const shop = business([CAPABILITY.cart]);
    for (let i = 0; i < 2; i++) expect(() => negotiated(shop, old)).toThrow(ProtocolError);
    expect(
      negotiated(business([CAPABILITY.cart], { '2025-01-01': 'https://shop.example/v1/proto' }), old).active.has(CAPABILITY.cart),
    ).toBe(true);
  });
});

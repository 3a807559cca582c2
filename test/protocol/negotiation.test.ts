import { describe, expect, it } from 'vitest';
import { capabilityRegistry, checkVersion, negotiate } from '../../src/protocol/negotiation.js';
import { CAPABILITY, type CapabilityName } from '../../src/protocol/capability-registry.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { platformProfile } from '../helpers/platform.js';

const business: CapabilityName[] = Object.values(CAPABILITY).filter((c) => c !== CAPABILITY.identityLinking);

describe('capability negotiation', () => {
  it('activates the intersection of business and platform', () => {
    const active = negotiate(business, platformProfile([CAPABILITY.cart, CAPABILITY.catalogSearch, 'com.other.thing']));
    expect([...active].sort()).toEqual([CAPABILITY.cart, CAPABILITY.catalogSearch].sort());
  });

  it('keeps an extension while one of its parents is active', () => {
    const active = negotiate(business, platformProfile([CAPABILITY.cart, CAPABILITY.discount]));
    expect(active.has(CAPABILITY.discount)).toBe(true);
  });

  it('prunes an extension whose parents are all absent', () => {
    const active = negotiate(business, platformProfile([CAPABILITY.discount, CAPABILITY.fulfillment, CAPABILITY.order]));
    expect([...active]).toEqual([CAPABILITY.order]);
  });

  it('prunes against the business side too: a parent the business lacks does not count', () => {
    const active = negotiate(
      [CAPABILITY.checkout, CAPABILITY.fulfillment].filter((c) => c !== CAPABILITY.checkout),
      platformProfile(),
    );
    expect(active.size).toBe(0);
  });

  it('ignores platform entries whose schema URL breaks authority binding', () => {
    const profile = platformProfile([CAPABILITY.catalogSearch]);
    profile.proto.capabilities[CAPABILITY.cart] = [{ version: '2026-04-08', schema: 'https://evil.example/cart.json' } as never];
    expect([...negotiate(business, profile)]).toEqual([CAPABILITY.catalogSearch]);
  });

  it('renders the active set as a version registry', () => {
    expect(capabilityRegistry(new Set([CAPABILITY.cart]))).toEqual({ [CAPABILITY.cart]: [{ version: '2026-04-08' }] });
  });

  it('refuses an unsupported protocol version with 422 version_unsupported', () => {
    expect(() => checkVersion(platformProfile([], {}, '2027-01-01'), {})).toThrow(ProtocolError);
    try {
      checkVersion(platformProfile([], {}, '2027-01-01'), {});
    } catch (error) {
      expect((error as ProtocolError).status).toBe(422);
      expect((error as ProtocolError).code).toBe('version_unsupported');
      expect((error as ProtocolError).jsonRpcCode).toBe(-32001);
    }
    expect(() => checkVersion(platformProfile([], {}, '2026-01-11'), { '2026-01-11': 'https://shop.example/v1' })).not.toThrow();
  });
});

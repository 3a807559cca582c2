/**
 * Which credential the embedded page asks its host for (ep-config `auth`, ready's `auth`, `ec.auth`):
 * only where the business refuses anonymous callers, and only of a kind a host can hand over as a string.
 */
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/security/auth/authenticator.js';
import type { OwnAuthorizationServer } from '../../src/security/auth/own-authorization-server.js';

const CHECKOUT = 'dev.proto.shopping.checkout';
const CART = 'dev.proto.shopping.cart';
const KEY = { sha256: 'a'.repeat(64), profile: 'https://agent.example/.well-known/proto' };
const own: OwnAuthorizationServer = {
  issuer: 'https://shop.example',
  resource: 'https://shop.example',
  principalOf: async () => undefined,
};

describe('the credential a host is asked for', () => {
  it('is none when the capability admits anonymous callers', () => {
    expect(new Authenticator({ api_keys: [KEY] }, false, 'test').hostCredentialFor(CHECKOUT)).toBeUndefined();
  });

  it('is an API key where the capability requires a caller and the business issues keys', () => {
    const auth = new Authenticator({ api_keys: [KEY], required_capabilities: [CHECKOUT] }, true, 'test');
    expect(auth.hostCredentialFor(CHECKOUT)).toBe('api_key');
    expect(auth.hostCredentialFor(CART)).toBeUndefined();
  });

  it('is an OAuth token when the business accepts them (its own identity-linking server)', () => {
    expect(new Authenticator({ api_keys: [KEY], required: true }, false, 'test', own).hostCredentialFor(CART)).toBe('oauth');
  });

  it('is none when only signatures are accepted: no string a host holds would do', () => {
    expect(new Authenticator({ required: true }, true, 'test').hostCredentialFor(CHECKOUT)).toBeUndefined();
  });
});

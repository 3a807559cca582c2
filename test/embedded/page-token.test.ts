/** The page token: opaque, bound to tenant, kind and session, expiring, and unforgeable without the gateway secret. */
import { describe, expect, it } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { issuePageToken, readPageToken } from '../../src/embedded/session/page-token.js';

const secret = GatewaySecret.from('page token test secret');
const NOW = Date.parse('2026-03-10T12:00:00Z');
const session = { id: 'chk_123', owner: 'platform:https://agent.example/profile', expiresAt: NOW + 3_600_000 };
const token = issuePageToken(secret, 'shop', 'checkout', session);

describe('a page token', () => {
  it('names its session and owner until it expires', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readPageToken(secret, 'shop', 'checkout', token, NOW)).toEqual({ ok: true, session });
    expect(readPageToken(secret, 'shop', 'checkout', token, NOW + 3_599_999).ok).toBe(true);
    expect(readPageToken(secret, 'shop', 'checkout', token, NOW + 3_600_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is opaque: neither the session id, the owner nor the expiry can be read from it, and no two tokens are alike', () => {
    const bytes = Buffer.from(token, 'base64url');
    for (const shown of [bytes.toString('latin1'), bytes.toString('utf8'), token]) {
      expect(shown).not.toContain('chk_123');
      expect(shown).not.toContain('agent.example');
      expect(shown).not.toContain(String(Math.floor(session.expiresAt / 1000)));
    }
    expect(issuePageToken(secret, 'shop', 'checkout', session)).not.toBe(token);
  });

  it('is refused for another tenant, kind or gateway secret', () => {
    const invalid = { ok: false, reason: 'invalid' };
    expect(readPageToken(secret, 'other', 'checkout', token, NOW)).toEqual(invalid);
    expect(readPageToken(secret, 'shop', 'cart', token, NOW)).toEqual(invalid);
    expect(readPageToken(GatewaySecret.from('another secret'), 'shop', 'checkout', token, NOW)).toEqual(invalid);
  });

  it('is refused when altered, respelled, truncated or made up, before its expiry is even read', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const flip = (at: number) => `${token.slice(0, at)}${alphabet[alphabet.indexOf(token[at]!) ^ 1]}${token.slice(at + 1)}`;
    // The last character's spare bits decode alike: that spelling is still refused (one token, one spelling).
    const respelled = flip(token.length - 1);
    expect(Buffer.from(respelled, 'base64url').equals(Buffer.from(token, 'base64url'))).toBe(true);
    const legacy = `${Buffer.from(JSON.stringify(['chk_123', 'https://agent.example/profile', 9_999_999_999])).toString('base64url')}.${'A'.repeat(22)}`;
    for (const bad of [respelled, flip(0), flip(20), flip(token.length - 5), token.slice(0, -1), `${token}A`, legacy, '', 'A'.repeat(40)]) {
      expect(readPageToken(secret, 'shop', 'checkout', bad, NOW), bad).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

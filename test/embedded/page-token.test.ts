/** The page token: bound to tenant, kind and session, expiring, and unforgeable without the gateway secret. */
import { describe, expect, it } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { issuePageToken, readPageToken } from '../../src/embedded/session/page-token.js';

const secret = GatewaySecret.from('page token test secret');
const NOW = Date.parse('2026-03-10T12:00:00Z');
const session = { id: 'chk_123', owner: 'https://agent.example/profile', expiresAt: NOW + 3_600_000 };
const token = issuePageToken(secret, 'shop', 'checkout', session);

describe('a page token', () => {
  it('names its session and owner until it expires', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(readPageToken(secret, 'shop', 'checkout', token, NOW)).toEqual({ ok: true, session });
    expect(readPageToken(secret, 'shop', 'checkout', token, NOW + 3_599_999).ok).toBe(true);
    expect(readPageToken(secret, 'shop', 'checkout', token, NOW + 3_600_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is refused for another tenant, kind or gateway secret', () => {
    const invalid = { ok: false, reason: 'invalid' };
    expect(readPageToken(secret, 'other', 'checkout', token, NOW)).toEqual(invalid);
    expect(readPageToken(secret, 'shop', 'cart', token, NOW)).toEqual(invalid);
    expect(readPageToken(GatewaySecret.from('another secret'), 'shop', 'checkout', token, NOW)).toEqual(invalid);
  });

  it('is refused when altered, truncated or made up, before its expiry is even read', () => {
    const [data, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['chk_999', session.owner, 9_999_999_999])).toString('base64url');
    // Both spellings of the last character (its spare bits decode alike) but one are refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${data}.${mac.slice(0, -1)}${alphabet[alphabet.indexOf(mac.at(-1)!) ^ 1]}`;
    expect(Buffer.from(respelled.split('.')[1]!, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
    for (const bad of [
      respelled,
      `${forged}.${mac}`,
      `${data}.${mac.slice(0, -1)}`,
      `${data}x.${mac}`,
      data,
      '',
      '..',
      'a.b',
      `${data}.${'A'.repeat(22)}`,
    ]) {
      expect(readPageToken(secret, 'shop', 'checkout', bad, NOW), bad).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

/**
 * The token in an embedded page URL (`{base_url}/embedded/{kind}/{token}`): it names the cart or
 * checkout and the platform that owns it, expires, and is HMAC-signed over the tenant and kind
 * with a key derived from GATEWAY_SECRET, so it cannot be guessed, altered, stretched, or used
 * with another tenant, kind or session. It is the page's only credential (no cookie).
 * Format: base64url(JSON [id, owner, expiry in epoch seconds]) "." base64url(128-bit HMAC-SHA256).
 */
import type { GatewaySecret } from '../../config/gateway-secret.js';
import type { SessionKind } from '../settings.js';
import { hmacSha256 } from '../../../adapters/kit/hmac-sha256.js';
import { signatureMatches } from '../../../adapters/kit/hmac.js';

export const PAGE_TOKEN_PURPOSE = 'embedded-page';

export interface PageSession {
  id: string;
  /** The profile URL of the platform that owns the session: the page acts for it. */
  owner: string;
  expiresAt: number;
}

export type PageTokenCheck = { ok: true; session: PageSession } | { ok: false; reason: 'invalid' | 'expired' };

const signature = (secret: GatewaySecret, tenantId: string, kind: SessionKind, data: string) =>
  hmacSha256(secret.key(PAGE_TOKEN_PURPOSE), `${tenantId}\n${kind}\n${data}`).subarray(0, 16);

export function issuePageToken(secret: GatewaySecret, tenantId: string, kind: SessionKind, session: PageSession): string {
  const data = Buffer.from(JSON.stringify([session.id, session.owner, Math.floor(session.expiresAt / 1000)])).toString('base64url');
  return `${data}.${signature(secret, tenantId, kind, data).toString('base64url')}`;
}

const TOKEN = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{22})$/;

function parse(data: string): PageSession | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [id, owner, expires] = value as unknown[];
  if (typeof id !== 'string' || typeof owner !== 'string' || !Number.isSafeInteger(expires)) return undefined;
  return { id, owner, expiresAt: (expires as number) * 1000 };
}

/** The session a token names; the signature is checked first, so a forged token learns nothing else. */
export function readPageToken(secret: GatewaySecret, tenantId: string, kind: SessionKind, token: string, now: number): PageTokenCheck {
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  // Compared as text: base64url decoding ignores the last character's spare bits, and one token must have one spelling.
  const given = Buffer.from(match[2]!);
  const expected = Buffer.from(signature(secret, tenantId, kind, match[1]!).toString('base64url'));
  if (!signatureMatches(given, expected)) return { ok: false, reason: 'invalid' };
  const session = parse(match[1]!);
  if (!session) return { ok: false, reason: 'invalid' };
  if (session.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, session };
}

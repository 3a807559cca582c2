/**
 * The token in an embedded page URL (`{base_url}/embedded/{kind}/{token}`): it names the cart or
 * checkout and its owner (security/auth/principal.ts `ownerOf`), and expires. It is opaque: the
 * session, the owner and the expiry are encrypted and authenticated (AES-256-GCM under a key
 * derived from GATEWAY_SECRET), bound to the tenant and kind, so whoever sees the URL (a log, a
 * shared screen) learns nothing to call the session with elsewhere, and the token cannot be
 * guessed, altered, stretched, or used with another tenant, kind or session. It is the page's
 * only credential (no cookie). Format: base64url(nonce 12 random bytes | ciphertext | tag 16
 * bytes), the plaintext JSON [id, owner, expiry in epoch seconds].
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { GatewaySecret } from '../../config/gateway-secret.js';
import type { SessionKind } from '../settings.js';

const PAGE_TOKEN_PURPOSE = 'embedded-page-token';

export interface PageSession {
  id: string;
  /** The session's owner (`ownerOf`): the page acts for it. */
  owner: string;
  expiresAt: number;
}

export type PageTokenCheck = { ok: true; session: PageSession } | { ok: false; reason: 'invalid' | 'expired' };

/** Random 96-bit nonces: NIST SP 800-38D §8.3 allows 2^32 of them under one key (decades of answers; a new secret starts afresh). */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** What the token is bound to besides its own content. */
const boundTo = (tenantId: string, kind: SessionKind) => Buffer.from(`${tenantId}\n${kind}`);

export function issuePageToken(secret: GatewaySecret, tenantId: string, kind: SessionKind, session: PageSession): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secret.key(PAGE_TOKEN_PURPOSE), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(boundTo(tenantId, kind));
  const plain = JSON.stringify([session.id, session.owner, Math.floor(session.expiresAt / 1000)]);
  return Buffer.concat([nonce, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

/** A path segment the router passes on (MAX_PARAM_LENGTH), longer than a nonce and a tag. */
const TOKEN = /^[A-Za-z0-9_-]{38,1024}$/;

function open(secret: GatewaySecret, tenantId: string, kind: SessionKind, sealed: Buffer): string | undefined {
  const decipher = createDecipheriv('aes-256-gcm', secret.key(PAGE_TOKEN_PURPOSE), sealed.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(boundTo(tenantId, kind));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined; // the tag does not verify: altered, forged, or sealed for another tenant, kind or secret
  }
}

function parse(plain: string): PageSession | undefined {
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [id, owner, expires] = value as unknown[];
  if (typeof id !== 'string' || typeof owner !== 'string' || !Number.isSafeInteger(expires)) return undefined;
  return { id, owner, expiresAt: (expires as number) * 1000 };
}

/** The session a token names, once its tag verifies: a forged token learns nothing else. */
export function readPageToken(secret: GatewaySecret, tenantId: string, kind: SessionKind, token: string, now: number): PageTokenCheck {
  if (!TOKEN.test(token)) return { ok: false, reason: 'invalid' };
  const sealed = Buffer.from(token, 'base64url');
  // One token, one spelling: base64url decoding ignores the last character's spare bits.
  if (sealed.toString('base64url') !== token || sealed.length <= NONCE_BYTES + TAG_BYTES) return { ok: false, reason: 'invalid' };
  const plain = open(secret, tenantId, kind, sealed);
  const session = plain === undefined ? undefined : parse(plain);
  if (!session) return { ok: false, reason: 'invalid' };
  if (session.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, session };
}

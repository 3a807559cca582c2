/**
 * HMAC for webhooks and signed tokens: one digest helper and one constant-time comparison, so no
 * adapter compares a signature with `===` or forgets the length check `timingSafeEqual` needs.
 */
import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { hmacSha256 } from './hmac-sha256.js';

/**
 * HMAC of the parts in order (a prefix, the raw body, a suffix: whatever the platform signs). A
 * key used per request is best a KeyObject made once: given a string or Buffer, Node 24's
 * createHmac throws and catches an exception per call to learn it is not a KeyObject. SHA-256 with
 * such a key skips createHmac altogether (hmac-sha256.ts).
 */
export function hmac(algorithm: string, secret: string | Buffer | KeyObject, ...parts: Array<string | Buffer>): Buffer {
  if (algorithm === 'sha256' && secret instanceof KeyObject) return hmacSha256(secret, ...parts);
  const mac = createHmac(algorithm, secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Whether a presented signature (already decoded to bytes) equals the expected one, in constant time. */
export function signatureMatches(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * HMAC for webhooks and signed tokens: one digest helper and one constant-time comparison, so no
 * adapter compares a signature with `===` or forgets the length check `timingSafeEqual` needs.
 */
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * HMAC of the parts in order (a prefix, the raw body, a suffix: whatever the platform signs). A
 * key used per request is best a KeyObject made once: given a string or Buffer, Node 24's
 * createHmac throws and catches an exception per call to learn it is not a KeyObject.
 */
export function hmac(algorithm: string, secret: string | Buffer | KeyObject, ...parts: Array<string | Buffer>): Buffer {
  const mac = createHmac(algorithm, secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Whether a presented signature (already decoded to bytes) equals the expected one, in constant time. */
export function signatureMatches(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Content-Digest (RFC 9530) over the raw body bytes, never over re-serialized JSON
 * (spec part 2 §5.2). The field is an RFC 8941 dictionary, parsed with structured-headers.
 */
import { createHash } from 'node:crypto';
import { parseDictionary } from 'structured-headers';
import { digestMismatch, invalidDigest } from './errors.js';

/** Digest algorithms a verifier accepts; the gateway itself always sends sha-256. */
const HASHES: Record<string, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

export type Body = Buffer | string | undefined;

const bytesOf = (body: Body): Buffer => (body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

/**
 * `sha-256=:<base64>:`, the RFC 8941 serialization of a one-member dictionary (tests compare it
 * with structured-headers' output); written directly because that library's base64 costs more
 * than the hash itself on every signed response.
 */
export function contentDigest(body: Body): string {
  return `sha-256=:${createHash('sha256').update(bytesOf(body)).digest('base64')}:`;
}

/** Throws 400 when the field is malformed, names no known algorithm, or does not match the body. */
export function checkContentDigest(field: string, body: Body): void {
  let dictionary;
  try {
    dictionary = parseDictionary(field);
  } catch {
    throw invalidDigest('Content-Digest is not a valid RFC 8941 dictionary');
  }
  const bytes = bytesOf(body);
  let checked = 0;
  for (const [name, member] of dictionary) {
    const hash = HASHES[name];
    if (!hash) continue;
    // structured-headers types byte sequences as the DOM's BufferSource, which Node's lib lacks.
    const value: unknown = member[0];
    if (!(value instanceof ArrayBuffer)) throw invalidDigest(`Content-Digest ${name} must be a byte sequence (${name}=:<base64>:)`);
    if (!createHash(hash).update(bytes).digest().equals(Buffer.from(value))) throw digestMismatch();
    checked++;
  }
  if (checked === 0) throw invalidDigest(`Content-Digest carries none of ${Object.keys(HASHES).join(', ')}`);
}

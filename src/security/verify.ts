/**
 * Verification of RFC 9421 signatures against the signer's published keys (spec part 2 §5):
 * Content-Digest first, then every labelled signature. Each must cover the required components,
 * be within its validity window and verify; a signature whose key this gateway cannot use is
 * skipped when another one verifies. The window is bounded: a signature states when it was made
 * (`created`) or when it ends (`expires`, then no further ahead than the max age), and one that
 * carries a `nonce` is accepted once (RFC 9421 §7.2.2).
 */
import { createHash } from 'node:crypto';
import { ProtocolError } from '../protocol/errors.js';
import { verifyBytes } from './algorithms.js';
import { checkContentDigest } from './content-digest.js';
import { requestComponents, responseComponents, uncovered } from './covered-components.js';
import { algorithmUnsupported, signatureExpired, signatureInvalid, signatureMissing, unknownKey } from './errors.js';
import { fieldValue, isRequest, type HttpMessage, type HttpRequestMessage, type HttpResponseMessage } from './http-message.js';
import type { KeySet } from './key-set.js';
import { signatureBase } from './signature-base.js';
import { parseSignatures, type ParsedSignature } from './signature-fields.js';
import { WEB_BOT_AUTH_TAG } from './web-bot-auth.js';

/** Defaults of the validity window; tenants set their own (`signing.clock_skew_seconds`, `max_age_seconds`). */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;
export const DEFAULT_MAX_AGE_SECONDS = 300;

/**
 * Where the nonces of accepted signatures are remembered until the signature would be refused
 * anyway: the state store, so a replay to another replica is refused too.
 */
export interface NonceStore {
  /** Writes only when the key is absent; true when written. */
  setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean>;
}

export interface VerifyOptions {
  now: () => number;
  /** Tolerated difference between the signer's clock and ours. */
  clockSkewSeconds?: number;
  /** Oldest `created` accepted, and the furthest `expires` of a signature without `created`. */
  maxAgeSeconds?: number;
  /** Remember nonces here and refuse a signature whose nonce was seen; without it nonces are not checked. */
  nonces?: NonceStore;
}

export interface VerifiedSignature {
  label: string;
  kid: string;
  tag?: string;
}

/** Checks the validity window; returns the seconds until the signature would be refused anyway. */
function checkTimes(sig: ParsedSignature, options: VerifyOptions): number {
  const now = options.now() / 1000;
  const skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const maxAge = options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  const { created, expires } = sig.params;
  if (created === undefined && expires === undefined) {
    throw signatureInvalid(
      sig.label,
      `has neither created nor expires: this business accepts a signature for ${maxAge} s after it is made`,
    );
  }
  if (created !== undefined && expires !== undefined && expires < created) throw signatureInvalid(sig.label, 'expires is before created');
  if (expires !== undefined && now > expires + skew) throw signatureExpired(sig.label, 'the signature has expired');
  if (created === undefined) {
    // Without created, expires alone bounds the signature: no further ahead than the max age.
    if (expires! > now + maxAge + skew)
      throw signatureInvalid(sig.label, `expires is further ahead than this business accepts (${maxAge} s)`);
    return expires! + skew - now;
  }
  if (created > now + skew) throw signatureInvalid(sig.label, 'created is in the future');
  if (now - created > maxAge + skew) throw signatureExpired(sig.label, 'created is older than this business accepts');
  return Math.min(created + maxAge + skew, expires === undefined ? Infinity : expires + skew) - now;
}

/**
 * Claims the signature's nonce for the signer's key until the signature would be refused anyway;
 * a nonce already claimed is a replay. The key holds a hash: nonces are the signer's text.
 */
async function claimNonce(sig: ParsedSignature, thumbprint: string, remainingSeconds: number, nonces: NonceStore): Promise<void> {
  const digest = createHash('sha256').update(`${thumbprint}\n${sig.params.nonce}`).digest('base64url');
  const ttlMs = Math.max(1000, Math.ceil(remainingSeconds * 1000));
  if (!(await nonces.setIfAbsent(`signature-nonce:${digest}`, 1, ttlMs))) {
    throw signatureInvalid(sig.label, 'its nonce was already used: a signature with a nonce is accepted once');
  }
}

async function verifyOne(message: HttpMessage, sig: ParsedSignature, keys: KeySet, options: VerifyOptions): Promise<VerifiedSignature> {
  const { label, params } = sig;
  if (params.keyid === undefined) throw signatureInvalid(label, 'has no keyid');
  const key = keys.get(params.keyid);
  if (!key) throw unknownKey(label, params.keyid);
  if (!key.usable) throw algorithmUnsupported(label, key.unusable ?? 'unusable key');
  const { algorithm, publicKey } = key.usable;
  if (params.alg !== undefined && params.alg !== algorithm.httpName) {
    throw signatureInvalid(label, `alg ${JSON.stringify(params.alg)} does not match the key (${algorithm.httpName})`);
  }
  const missing = uncovered(isRequest(message) ? requestComponents(message, label) : responseComponents(message), sig.components);
  if (missing.length > 0) throw signatureInvalid(label, `does not cover the required components ${missing.join(', ')}`);
  const remainingSeconds = checkTimes(sig, options);
  if (params.tag === WEB_BOT_AUTH_TAG) {
    if (params.created === undefined || params.expires === undefined)
      throw signatureInvalid(label, 'web-bot-auth signatures need created and expires');
    if (params.keyid !== (await key.thumbprint()))
      throw signatureInvalid(label, "web-bot-auth signatures need keyid = the key's RFC 7638 thumbprint");
  }
  if (!verifyBytes(algorithm, publicKey, signatureBase(message, sig.components, sig.serializedParams, label), sig.signature)) {
    throw signatureInvalid(label, 'does not verify');
  }
  if (params.nonce !== undefined && options.nonces) await claimNonce(sig, await key.thumbprint(), remainingSeconds, options.nonces);
  return { label, kid: params.keyid, ...(params.tag !== undefined && { tag: params.tag }) };
}

/** Whether the message carries a signature (or half of one) to verify. */
export function carriesSignature(message: HttpMessage): boolean {
  return fieldValue(message.headers, 'signature-input') !== undefined || fieldValue(message.headers, 'signature') !== undefined;
}

async function verifyMessage(message: HttpMessage, keys: KeySet, options: VerifyOptions): Promise<VerifiedSignature[]> {
  if (!carriesSignature(message)) return [];
  const input = fieldValue(message.headers, 'signature-input');
  const signature = fieldValue(message.headers, 'signature');
  if (input === undefined) throw signatureMissing('Signature comes without Signature-Input: send both (RFC 9421)');
  if (signature === undefined) throw signatureMissing('Signature-Input comes without Signature: send both (RFC 9421)');
  const signatures = parseSignatures(input, signature);
  const digest = fieldValue(message.headers, 'content-digest');
  if (digest !== undefined) checkContentDigest(digest, message.body);

  const verified: VerifiedSignature[] = [];
  const failures: ProtocolError[] = [];
  for (const sig of signatures) {
    try {
      verified.push(await verifyOne(message, sig, keys, options));
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      failures.push(error);
    }
  }
  const blocking = failures.find((f) => f.code !== 'algorithm_unsupported');
  if (blocking) throw blocking;
  if (verified.length === 0) throw failures[0]!;
  return verified;
}

/**
 * Verifies the signatures on a request as received. Returns [] when it carries none (the caller
 * decides whether that is acceptable); throws a ProtocolError (400/401) on any bad signature.
 */
export function verifyRequest(message: HttpRequestMessage, keys: KeySet, options: VerifyOptions): Promise<VerifiedSignature[]> {
  return verifyMessage(message, keys, options);
}

/** The same for a response, e.g. a platform checking what the gateway sent. */
export function verifyResponse(message: HttpResponseMessage, keys: KeySet, options: VerifyOptions): Promise<VerifiedSignature[]> {
  return verifyMessage(message, keys, options);
}

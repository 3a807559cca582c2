/**
 * A signer's published keys (a JWK Set), ready to verify: each usable key imported once with
 * jose into a node:crypto KeyObject. Keys of a type or curve this gateway cannot use stay in
 * the set, marked unusable, so they never break verification by the other keys (spec part 2
 * §5.1); a signature made with one fails with `algorithm_unsupported`.
 */
import { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import { algorithmOf, describeKeyType, type SignatureAlgorithm } from './algorithms.js';

export interface VerificationKey {
  kid: string;
  /** Present when the key can verify; otherwise `unusable` says why. */
  usable?: { algorithm: SignatureAlgorithm; publicKey: KeyObject };
  unusable?: string;
  /** RFC 7638 SHA-256 thumbprint (web-bot-auth requires kid to equal it). */
  thumbprint(): Promise<string>;
}

export type JwkLike = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is JwkLike => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Only the public members: a stray `d` in a published key is never imported. */
export function publicMembers(jwk: JwkLike): JWK {
  const { kty, crv, x, y } = jwk;
  return { kty, crv, x, ...(y !== undefined && { y }) } as JWK;
}

/** Imports the public half of a JWK; throws when the material is not a valid key of `algorithm`. */
async function importPublicKey(jwk: JwkLike, algorithm: SignatureAlgorithm): Promise<KeyObject> {
  const imported = await importJWK(publicMembers(jwk), algorithm.name);
  if (imported instanceof Uint8Array) throw new Error('not an asymmetric key');
  const publicKey = KeyObject.from(imported);
  if (publicKey.type !== 'public') throw new Error('not a public key');
  return publicKey;
}

async function prepare(kid: string, jwk: JwkLike): Promise<VerificationKey> {
  let thumbprint: Promise<string> | undefined;
  const base = { kid, thumbprint: () => (thumbprint ??= calculateJwkThumbprint(publicMembers(jwk), 'sha256')) };
  const algorithm = algorithmOf(jwk);
  if (!algorithm)
    return { ...base, unusable: `key ${JSON.stringify(kid)} has ${describeKeyType(jwk)}, which this verifier does not support` };
  try {
    return { ...base, usable: { algorithm, publicKey: await importPublicKey(jwk, algorithm) } };
  } catch {
    return { ...base, unusable: `key ${JSON.stringify(kid)} is not a valid ${algorithm.name} public key` };
  }
}

export class KeySet {
  private constructor(private readonly keys: ReadonlyMap<string, VerificationKey>) {}

  /** Entries without a string kid cannot be referenced by a signature and are left out. */
  static async from(jwks: readonly unknown[]): Promise<KeySet> {
    const entries = jwks.filter(isObject).filter((jwk): jwk is JwkLike & { kid: string } => typeof jwk.kid === 'string' && jwk.kid !== '');
    const prepared = await Promise.all(entries.map((jwk) => prepare(jwk.kid, jwk)));
    const keys = new Map<string, VerificationKey>();
    for (const key of prepared) if (!keys.has(key.kid)) keys.set(key.kid, key);
    return new KeySet(keys);
  }

  get(kid: string): VerificationKey | undefined {
    return this.keys.get(kid);
  }
}

const profileKeySets = new WeakMap<object, Promise<KeySet>>();

/**
 * The key set of a fetched profile (`keys`, plus `signing_keys` that 2026-04-08 peers publish),
 * prepared once per cached profile object.
 */
export function keySetOfProfile(profile: { keys?: unknown[]; signing_keys?: unknown[] }): Promise<KeySet> {
  let keySet = profileKeySets.get(profile);
  if (!keySet) {
    keySet = KeySet.from([...(profile.keys ?? []), ...(profile.signing_keys ?? [])]);
    profileKeySets.set(profile, keySet);
  }
  return keySet;
}

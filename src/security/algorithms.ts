/**
 * Signature algorithms (spec part 2 §5.1), always derived from a key's kty and crv, never from
 * an `alg` parameter. ECDSA signatures are raw r||s (IEEE P1363), Ed25519 the 64-byte RFC 8032
 * encoding. Sign and verify run on node:crypto KeyObjects prepared once per key.
 */
import { sign, verify, type KeyObject } from 'node:crypto';

export type AlgorithmName = 'ES256' | 'ES384' | 'EdDSA';

export interface SignatureAlgorithm {
  /** JOSE name, as published in a JWK's optional `alg`. */
  name: AlgorithmName;
  /** RFC 9421 registry name, accepted in a Signature-Input `alg` when it agrees with the key. */
  httpName: string;
  kty: 'EC' | 'OKP';
  crv: string;
  /** Digest fed to node:crypto; null for EdDSA, which hashes internally. */
  hash: 'sha256' | 'sha384' | null;
  signatureBytes: number;
}

export const ALGORITHMS: Record<AlgorithmName, SignatureAlgorithm> = {
  ES256: { name: 'ES256', httpName: 'ecdsa-p256-sha256', kty: 'EC', crv: 'P-256', hash: 'sha256', signatureBytes: 64 },
  ES384: { name: 'ES384', httpName: 'ecdsa-p384-sha384', kty: 'EC', crv: 'P-384', hash: 'sha384', signatureBytes: 96 },
  EdDSA: { name: 'EdDSA', httpName: 'ed25519', kty: 'OKP', crv: 'Ed25519', hash: null, signatureBytes: 64 },
};

export const isAlgorithmName = (name: string): name is AlgorithmName => Object.hasOwn(ALGORITHMS, name);

/** The algorithm a JWK's kty/crv implies; undefined for anything this gateway cannot use. */
export function algorithmOf(jwk: { kty?: unknown; crv?: unknown }): SignatureAlgorithm | undefined {
  return Object.values(ALGORITHMS).find((a) => a.kty === jwk.kty && a.crv === jwk.crv);
}

export function describeKeyType(jwk: { kty?: unknown; crv?: unknown }): string {
  return `kty ${JSON.stringify(jwk.kty)}${jwk.crv === undefined ? '' : ` crv ${JSON.stringify(jwk.crv)}`}`;
}

/**
 * The key argument of node:crypto's sign and verify, asking for raw r||s. Node reads
 * `dsaEncoding` from that argument, and would take the usual `{ key, dsaEncoding }` object, but
 * Node 24 first asks whether the object is a KeyObject, then a CryptoKey, and each "no" is an
 * exception thrown and caught inside node:crypto: two per signature, about as much CPU as the
 * ECDSA signature itself inside a request (bench/results.md, issue 32). A KeyObject that carries
 * the encoding passes the first check, so each key is given it once (non-enumerable, read-only);
 * nothing else signs with these keys.
 */
function keyArgument(algorithm: SignatureAlgorithm, key: KeyObject): KeyObject {
  if (algorithm.hash && (key as { dsaEncoding?: string }).dsaEncoding !== 'ieee-p1363') {
    Object.defineProperty(key, 'dsaEncoding', { value: 'ieee-p1363' });
  }
  return key;
}

// Synchronous on purpose: node:crypto's callback form costs several times the CPU per
// signature on Node 20 (measured), which a throughput budget cannot afford.
export function signBytes(algorithm: SignatureAlgorithm, privateKey: KeyObject, data: Buffer): Buffer {
  return sign(algorithm.hash, data, keyArgument(algorithm, privateKey));
}

export function verifyBytes(algorithm: SignatureAlgorithm, publicKey: KeyObject, data: Buffer, signature: Buffer): boolean {
  // A DER-encoded or truncated ECDSA signature is not the encoding the spec requires.
  if (signature.length !== algorithm.signatureBytes) return false;
  return verify(algorithm.hash, data, keyArgument(algorithm, publicKey), signature);
}

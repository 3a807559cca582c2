/**
 * The business's own signing keys: resolved from secret references, checked at start-up,
 * the active one chosen by `active_kid`. Every key's public half is published in the profile,
 * so signatures by a key that is being rotated out keep verifying until it is removed.
 */
import { KeyObject, type webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { resolveSecret } from '../config/secrets.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import { ALGORITHMS, algorithmOf, describeKeyType, type AlgorithmName, type SignatureAlgorithm } from './algorithms.js';
import { KeySet, publicMembers, type JwkLike } from './key-set.js';

/** A type alias, not an interface, so it is a plain JSON object to the profile renderer. */
export type PublicJwk = {
  kty: string;
  crv: string;
  x: string;
  y?: string;
  kid: string;
  use: 'sig';
  alg: AlgorithmName;
};

export interface SigningKey {
  kid: string;
  algorithm: SignatureAlgorithm;
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

export class Keyring {
  static readonly none = new Keyring([], undefined, false);
  private verification?: Promise<KeySet>;

  constructor(
    readonly keys: readonly SigningKey[],
    /** The key that signs; undefined when the business has no signing key. */
    readonly active: SigningKey | undefined,
    /** Generated at start-up and lost on restart (demo only). */
    readonly ephemeral: boolean,
  ) {}

  get publicJwks(): PublicJwk[] {
    return this.keys.map((key) => key.publicJwk);
  }

  /** Verifies the business's own signatures with any key still published. */
  verificationKeys(): Promise<KeySet> {
    return (this.verification ??= KeySet.from(this.publicJwks));
  }
}

/** Checks a private JWK and prepares it for signing; every failure names `where` and never the key material. */
export async function signingKeyFromJwk(jwk: unknown, where: string): Promise<SigningKey> {
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk))
    throw new ConfigError(`${where}: not a JSON Web Key (expected a JSON object)`);
  const members = jwk as JwkLike;
  const algorithm = algorithmOf(members);
  if (!algorithm)
    throw new ConfigError(
      `${where}: ${describeKeyType(members)} is not supported; use EC P-256 (ES256), EC P-384 (ES384) or OKP Ed25519 (EdDSA)`,
    );
  if (members.alg !== undefined && members.alg !== algorithm.name) {
    throw new ConfigError(`${where}: alg ${JSON.stringify(members.alg)} contradicts ${describeKeyType(members)} (${algorithm.name})`);
  }
  if (typeof members.d !== 'string') throw new ConfigError(`${where}: is a public key; a signing key needs its private member d`);
  let privateKey: KeyObject;
  try {
    // WebCrypto refuses members that are malformed or a public point that does not belong to d
    // (node:crypto's own JWK import checks neither). Imported extractable: KeyObject.from() of a
    // non-extractable CryptoKey is deprecated on Node 24 (DEP0204), and a KeyObject is exportable anyway.
    const imported = await importJWK({ ...publicMembers(members), d: members.d }, algorithm.name, { extractable: true });
    privateKey = KeyObject.from(imported as webcrypto.CryptoKey);
  } catch {
    const point = algorithm.kty === 'EC' ? 'x, y' : 'x';
    throw new ConfigError(`${where}: is not a valid ${algorithm.name} key pair (malformed members, or ${point} not belonging to d)`);
  }
  const thumbprint = await calculateJwkThumbprint(publicMembers(members), 'sha256');
  if (members.kid !== thumbprint) {
    const found = typeof members.kid === 'string' ? `kid ${JSON.stringify(members.kid)} does not match the key` : 'has no kid';
    throw new ConfigError(
      `${where}: ${found}; its kid must be its RFC 7638 thumbprint "${thumbprint}" (npm run keys -- generate prints keys this way)`,
    );
  }
  const { kty, crv, x, y } = publicMembers(members) as PublicJwk;
  return {
    kid: thumbprint,
    algorithm,
    privateKey,
    publicJwk: { kty, crv, x, ...(y !== undefined && { y }), kid: thumbprint, use: 'sig', alg: algorithm.name },
  };
}

/** A new key pair as a private JWK (kid = thumbprint), ready for a secret file. */
export async function generatePrivateJwk(name: AlgorithmName = 'ES256'): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair(name, { extractable: true, ...(name === 'EdDSA' && { crv: 'Ed25519' }) });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  return { kid, ...jwk, use: 'sig', alg: ALGORITHMS[name].name };
}

type SigningConfig = NonNullable<TenantConfig['signing']>;

function parseJwk(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message would quote the secret.
    throw new ConfigError(`${where}: the secret is not JSON; expected a private JWK`);
  }
}

export async function loadKeyring(
  signing: SigningConfig | undefined,
  where: string,
  baseDir: string,
  env: NodeJS.ProcessEnv,
): Promise<Keyring> {
  const refs = signing?.keys ?? [];
  if (signing?.ephemeral_key) {
    if (refs.length > 0) throw new ConfigError(`${where}: $.signing.ephemeral_key cannot be combined with $.signing.keys; remove one`);
    const key = await signingKeyFromJwk(await generatePrivateJwk('ES256'), `${where}: ephemeral key`);
    return new Keyring([key], key, true);
  }
  const keys: SigningKey[] = [];
  for (const [i, ref] of refs.entries()) {
    const field = `${where}: $.signing.keys[${i}]`;
    const key = await signingKeyFromJwk(parseJwk(resolveSecret(ref, field, baseDir, env), field), field);
    const twin = keys.findIndex((k) => k.kid === key.kid);
    if (twin >= 0) throw new ConfigError(`${field}: is the same key as $.signing.keys[${twin}] (kid ${key.kid})`);
    keys.push(key);
  }
  const activeKid = signing?.active_kid;
  if (keys.length === 0) {
    if (activeKid !== undefined) throw new ConfigError(`${where}: $.signing.active_kid is set but $.signing.keys is empty`);
    return Keyring.none;
  }
  // With one key there is nothing to choose; with several (rotation) the tenant file says which signs.
  if (activeKid === undefined && keys.length === 1) return new Keyring(keys, keys[0], false);
  if (activeKid === undefined)
    throw new ConfigError(
      `${where}: $.signing.active_kid is required: the kid of the key that signs (one of ${keys.map((k) => k.kid).join(', ')})`,
    );
  const active = keys.find((k) => k.kid === activeKid);
  if (!active)
    throw new ConfigError(
      `${where}: $.signing.active_kid "${activeKid}" is not the kid of any key in $.signing.keys (${keys.map((k) => k.kid).join(', ')})`,
    );
  return new Keyring(keys, active, false);
}

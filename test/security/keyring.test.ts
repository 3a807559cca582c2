/** Start-up checks of the business's signing keys and of the security configuration. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { securityTenantConfig } from './helpers/secure-gateway.js';
import { loadTenantFiles } from '../../src/config/load-tenants.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { generatePrivateJwk, Keyring, loadKeyring } from '../../src/security/keyring.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { TenantSecurity } from '../../src/security/tenant-security.js';

type Jwk = Awaited<ReturnType<typeof generatePrivateJwk>>;
let a: Jwk;
let b: Jwk;
let dir: string;
const FILE = 'config/tenants/shop.yaml';

beforeAll(async () => {
  [a, b] = await Promise.all([generatePrivateJwk('ES256'), generatePrivateJwk('ES256')]);
  dir = mkdtempSync(join(tmpdir(), 'proto-keys-'));
  writeFileSync(join(dir, 'a.json'), JSON.stringify(a));
});

const load = (signing: NonNullable<TenantConfig['signing']>, env: Record<string, string> = {}) => loadKeyring(signing, FILE, dir, env);
const failure = async (signing: NonNullable<TenantConfig['signing']>, env: Record<string, string> = {}) => {
  const error = await load(signing, env).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error, 'expected start-up to fail').toBeInstanceOf(Error);
  return error!.message;
};

describe('loading signing keys', () => {
  it('loads keys from files (relative to the tenant file) and env, and signs with active_kid', async () => {
    const keyring = await load({ keys: [{ file: 'a.json' }, { env: 'KEY_B' }], active_kid: b.kid }, { KEY_B: JSON.stringify(b) });
    expect(keyring.keys.map((k) => k.kid)).toEqual([a.kid, b.kid]);
    expect(keyring.active?.kid).toBe(b.kid);
    expect(keyring.publicJwks[0]).toEqual({ kty: 'EC', crv: 'P-256', x: a.x, y: a.y, kid: a.kid, use: 'sig', alg: 'ES256' });
    expect(keyring.ephemeral).toBe(false);
  });

  it('names the file and field of a key that is not JSON, without quoting the secret', async () => {
    const message = await failure({ keys: [{ env: 'K' }], active_kid: 'x' }, { K: 'd=supersecretvalue' });
    expect(message).toBe(`${FILE}: $.signing.keys[0]: the secret is not JSON; expected a private JWK`);
  });

  it('refuses unsupported key types, public-only keys, and pairs whose halves do not match', async () => {
    expect(
      await failure({ keys: [{ env: 'K' }], active_kid: 'x' }, { K: JSON.stringify({ kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQAB' }) }),
    ).toMatch(/\$\.signing\.keys\[0\]: kty "RSA" is not supported; use EC P-256/);
    const { d: _d, ...publicOnly } = a;
    expect(await failure({ keys: [{ env: 'K' }], active_kid: a.kid }, { K: JSON.stringify(publicOnly) })).toMatch(
      /is a public key; a signing key needs its private member d/,
    );
    const mixed = { ...b, d: a.d };
    const message = await failure({ keys: [{ env: 'K' }], active_kid: b.kid }, { K: JSON.stringify(mixed) });
    expect(message).toBe(`${FILE}: $.signing.keys[0]: is not a valid ES256 key pair (malformed members, or x, y not belonging to d)`);
    expect(message).not.toContain(a.d!);
  });

  it('requires kid to be the RFC 7638 thumbprint', async () => {
    expect(await failure({ keys: [{ env: 'K' }], active_kid: 'k1' }, { K: JSON.stringify({ ...a, kid: 'k1' }) })).toBe(
      `${FILE}: $.signing.keys[0]: kid "k1" does not match the key; ` +
        `its kid must be its RFC 7638 thumbprint "${a.kid}" (npm run keys -- generate prints keys this way)`,
    );
    const { kid: _kid, ...noKid } = a;
    expect(await failure({ keys: [{ env: 'K' }], active_kid: a.kid }, { K: JSON.stringify(noKid) })).toMatch(/has no kid; its kid must be/);
  });

  it('requires active_kid to name one of the keys when there are several, and each key once', async () => {
    expect(await failure({ keys: [{ file: 'a.json' }], active_kid: b.kid })).toBe(
      `${FILE}: $.signing.active_kid "${b.kid}" is not the kid of any key in $.signing.keys (${a.kid})`,
    );
    expect((await load({ keys: [{ file: 'a.json' }] })).active?.kid).toBe(a.kid);
    expect(await failure({ keys: [{ file: 'a.json' }, { env: 'B' }] }, { B: JSON.stringify(b) })).toMatch(
      /\$\.signing\.active_kid is required/,
    );
    expect(await failure({ keys: [{ file: 'a.json' }, { env: 'A' }], active_kid: a.kid }, { A: JSON.stringify(a) })).toMatch(
      /keys\[1\]: is the same key as \$\.signing\.keys\[0\]/,
    );
    expect(await failure({ keys: [{ file: 'missing.json' }], active_kid: a.kid })).toMatch(
      /keys\[0\]: cannot read secret file .*missing\.json \(ENOENT\)/,
    );
  });

  it('generates an ephemeral ES256 key only when asked, and never beside configured keys', async () => {
    const keyring = await load({ ephemeral_key: true });
    expect(keyring.ephemeral).toBe(true);
    expect(keyring.active?.algorithm.name).toBe('ES256');
    expect(await failure({ ephemeral_key: true, keys: [{ file: 'a.json' }], active_kid: a.kid })).toMatch(
      /ephemeral_key cannot be combined with \$\.signing\.keys/,
    );
    expect(await load({})).toBe(Keyring.none);
  });

  it('the demo tenant validates and signs with an ephemeral key', async () => {
    const demo = loadTenantFiles('config').find((t) => t.config.id === 'demo')!;
    const keyring = await loadKeyring(demo.config.signing, demo.file, dir, {});
    expect(keyring.ephemeral).toBe(true);
    expect(new TenantSecurity(demo.config, keyring, demo.file).signResponses).toBe(true);
  });
});

describe('start-up', () => {
  it('fails with the tenant file and field of a bad key, before any backend is touched', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'proto-config-'));
    mkdirSync(join(configDir, 'tenants', 'keys'), { recursive: true });
    writeFileSync(
      join(configDir, 'tenants', 'shop.json'),
      JSON.stringify({ ...securityTenantConfig, signing: { keys: [{ file: 'keys/a.json' }], active_kid: 'not-a-kid' } }),
    );
    writeFileSync(join(configDir, 'tenants', 'keys', 'a.json'), JSON.stringify(a));
    await expect(loadTenants(configDir, { env: {}, now: Date.now, store: new MemoryStore() })).rejects.toThrow(
      `${join(configDir, 'tenants', 'shop.json')}: $.signing.active_kid "not-a-kid" is not the kid of any key in $.signing.keys (${a.kid})`,
    );
  });
});

describe('security configuration checks', () => {
  const security =
    (extra: Partial<TenantConfig>, keyring = Keyring.none) =>
    () =>
      new TenantSecurity({ ...securityTenantConfig, ...extra }, keyring, FILE);

  it('fails clearly on policies that cannot work', () => {
    expect(security({ signing: { sign_responses: true } })).toThrow(`${FILE}: $.signing.sign_responses needs a signing key`);
    expect(security({ signing: { keys: [{ env: 'K' }], active_kid: 'x' } })).toThrow(/names keys that were not loaded/);
    expect(security({ auth: { accept: ['api_key'] } })).toThrow(`${FILE}: $.auth.accept lists api_key, which needs $.auth.api_keys`);
    expect(security({ signing: { verify_requests: 'off' }, auth: { accept: ['signature'] } })).toThrow(
      /accept lists signature, which needs \$\.signing\.verify_requests other than off/,
    );
    expect(security({ auth: { oauth: { issuer: 'https://id.example', audience: 'shop' } } })).toThrow(
      /\$\.auth\.oauth needs exactly one of jwks_url or jwks/,
    );
    expect(security({ auth: { required_capabilities: ['dev.proto.shopping.teleport'] } })).toThrow(/teleport is not a capability/);
  });
});

/**
 * `npm run keys -- api-key create|list|revoke`: keys issued per platform per tenant, stored as
 * hashes, read with the tenant files, and accepted by the gateway as the platform they were
 * issued to, exactly like that platform's signature.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApiKeys } from '../../scripts/api-keys.js';
import { run } from '../../scripts/keys.js';
import { loadTenantFiles } from '../../src/config/load-tenants.js';
import type { TenantAuth } from '../../src/config/tenant-schema.js';
import type { PlatformServer } from '../helpers/platform.js';
import { secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

const TENANT = `id: shop
name: Test Shop
base_url: https://shop.example
adapter: { type: memory, settings: {} }
capabilities: { dev.proto.shopping.order: {} }
`;

let dir: string;
let gw: SecureGateway | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proto-api-keys-'));
  mkdirSync(join(dir, 'tenants'));
  writeFileSync(join(dir, 'tenants', 'shop.yaml'), TENANT);
});
afterEach(async () => {
  await gw?.close();
  gw = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function keys(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runApiKeys(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, dir, () => new Date('2026-05-01T12:00:00Z'));
  return { code, out, err, key: out.find((l) => l.startsWith('pk_')) };
}

/** The tenant's auth as the gateway reads it from the files now. */
const authFromFiles = (): TenantAuth => loadTenantFiles(dir)[0]!.config.auth ?? {};

const whoami = (key: string) => gw!.call({ method: 'GET', path: '/whoami', sign: false, headers: { 'x-api-key': key } });

describe('npm run keys -- api-key', () => {
  it('create prints the key once and stores only its SHA-256; the gateway takes the key as that platform', async () => {
    let key = '';
    gw = await secureGateway({
      tenant: (platform: PlatformServer) => {
        const created = keys('create', '--tenant', 'shop', '--profile', platform.url(), '--name', 'Agent One');
        expect(created.code).toBe(0);
        key = created.key!;
        return { auth: { ...authFromFiles(), signatures: { profiles: [platform.url()] } } };
      },
    });
    expect(key).toMatch(/^pk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    const stored = readFileSync(join(dir, 'credentials', 'shop.json'), 'utf8');
    expect(stored).not.toContain(key.slice(12));
    expect(JSON.parse(stored).api_keys).toEqual([
      {
        id: key.slice(3, 11),
        name: 'Agent One',
        profile: gw.platform.url(),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        created_at: '2026-05-01T12:00:00.000Z',
      },
    ]);

    // The same platform principal a verified signature gives: one rate-limit budget, its own orders.
    const who = await whoami(key);
    expect(who.statusCode).toBe(200);
    expect(who.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'api_key' });
    const signed = await gw.call({ method: 'GET', path: '/whoami' });
    expect(signed.json().principal).toEqual({ kind: 'platform', profileUrl: gw.platform.url(), via: 'signature' });
    expect((await gw.call({ method: 'GET', path: '/order-probe/ord_1', sign: false, headers: { 'x-api-key': key } })).statusCode).toBe(200);
    expect((await gw.call({ method: 'GET', path: '/order-probe/ord_1', sign: false })).statusCode).toBe(401);
  });

  it('a key issued to another platform is refused (403 credential_profile_mismatch)', async () => {
    const created = keys('create', '--tenant', 'shop', '--profile', 'https://other-agent.example/.well-known/proto');
    gw = await secureGateway({ tenant: { auth: authFromFiles() } });
    const res = await whoami(created.key!);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'credential_profile_mismatch' });
  });

  it('list shows ids, platforms and status, never a key; revoke stops the key at the next load', async () => {
    let key = '';
    let other = '';
    gw = await secureGateway({
      tenant: (platform) => {
        key = keys('create', '--tenant', 'shop', '--profile', platform.url()).key!;
        other = keys('create', '--tenant', 'shop', '--profile', platform.url(), '--name', 'spare').key!;
        return {};
      },
    });
    const platformUrl = gw.platform.url();
    await gw.close();
    const id = key.slice(3, 11);
    expect(keys('revoke', '--tenant', 'shop', id)).toMatchObject({ code: 0 });
    const listed = keys('list', '--tenant', 'shop');
    expect(listed.code).toBe(0);
    expect(listed.out).toHaveLength(2);
    expect(listed.out[0]).toMatch(new RegExp(`^${id}  revoked 2026-05-01T12:00:00.000Z .* ${platformUrl}$`));
    expect(listed.out[1]).toMatch(/ active .*\(spare\)$/);
    expect(listed.out.join('\n')).not.toContain(key.slice(12));

    const auth = authFromFiles();
    expect(auth.api_keys).toHaveLength(1);
    gw = await secureGateway({
      tenant: (platform) => ({ auth: { api_keys: auth.api_keys!.map((k) => ({ ...k, profile: platform.url() })) } }),
    });
    const revoked = await whoami(key);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toMatchObject({ code: 'invalid_credentials' });
    expect((await whoami(other)).statusCode).toBe(200);
  });

  it('refuses what it cannot do, saying why', async () => {
    expect(keys('create', '--tenant', 'nope', '--profile', 'https://a.example/p')).toMatchObject({
      code: 1,
      err: ['no tenant "nope" in ' + dir + '/tenants'],
    });
    expect(keys('create', '--tenant', 'shop', '--profile', 'not a url').code).toBe(2);
    expect(keys('create', '--tenant', 'shop').code).toBe(2);
    expect(keys('revoke', '--tenant', 'shop', 'deadbeef')).toMatchObject({ code: 1, err: ['tenant shop has no API key deadbeef'] });
    expect(keys('rotate', '--tenant', 'shop').code).toBe(2);
    mkdirSync(join(dir, 'credentials'));
    writeFileSync(join(dir, 'credentials', 'shop.json'), '{"api_keys": [{"id": "x"}]}');
    const broken = keys('list', '--tenant', 'shop');
    expect(broken.code).toBe(1);
    expect(broken.err[0]).toContain('credentials/shop.json: $.api_keys[0]');
    // Through the keys command as npm runs it.
    const out: string[] = [];
    expect(await run(['api-key', 'list', '--tenant', 'shop'], { out: (l) => out.push(l), err: (l) => out.push(l) }, dir)).toBe(1);
  });
});

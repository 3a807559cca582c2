/**
 * `npm run keys -- oauth-client create|list|revoke`: confidential platforms' OAuth clients,
 * registered per tenant, read with the tenant files; a client-credentials token of a registered
 * client is that platform, exactly as its verified signature is (its orders, nobody else's).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeAll, afterAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/keys.js';
import { saveOrderRecord } from '../../src/capabilities/order/order-record.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';

const ISSUER = 'https://shop.example';
const tenantFile = (linking = true) => `id: shop
name: Test Shop
base_url: ${ISSUER}
adapter: { type: memory, settings: { data_dir: ${resolve('config/demo')}, storefront_url: ${ISSUER}/store } }
capabilities: { dev.proto.shopping.order: {}${linking ? ', dev.proto.common.identity_linking: {}' : ''} }
signing: { ephemeral_key: true }
policies: { allow_loopback_profiles: true }
`;

let dir: string;
let platform: PlatformServer;
let other: PlatformServer;
let gateway: { app: FastifyInstance; store: MemoryStore } | undefined;

beforeAll(async () => {
  [platform, other] = await Promise.all([startPlatform(), startPlatform()]);
});
afterAll(async () => {
  await Promise.all([platform.close(), other.close()]);
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proto-oauth-clients-'));
  mkdirSync(join(dir, 'tenants'));
  writeFileSync(join(dir, 'tenants', 'shop.yaml'), tenantFile());
});
afterEach(async () => {
  await closeGateway();
  rmSync(dir, { recursive: true, force: true });
});

async function keys(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, dir);
  return {
    code,
    out,
    err: err.join('\n'),
    secret: out.find((l) => l.startsWith('cs_')),
    clientId: /OAuth client (pc_[0-9a-f]+)/.exec(out[0] ?? '')?.[1],
  };
}

async function closeGateway() {
  await gateway?.app.close();
  await gateway?.store.close();
  gateway = undefined;
}

/** The gateway as it starts (or reloads) from the files now. */
async function startGateway(env: NodeJS.ProcessEnv = {}) {
  await closeGateway();
  const store = new MemoryStore();
  const tenants = await loadTenants(dir, { env, now: Date.now, store, baseUrl: ISSUER });
  const app = await buildServer({ settings: { bodyLimitBytes: 65_536, logLevel: 'silent' }, tenants, store, jobPollMs: 3_600_000 });
  await app.ready();
  gateway = { app, store };
  return { app, tenant: tenants.tenants[0]!, store };
}

/** An order the given platform placed (the demo store's e-book: nothing to ship). */
async function orderPlacedBy(profileUrl: string): Promise<string> {
  const { store } = gateway!;
  const tenant = gateway!.app.tenants.registry.tenants[0]!;
  const quote = { lines: [{ lineId: 'l1', variantId: 'ebook_flower_care', quantity: 1 }], discountCodes: [] };
  const total = (await tenant.adapter.quote(quote)).totals.total;
  const reference = `chk_${randomUUID()}`;
  const placed = await tenant.adapter.placeOrder({
    reference,
    quote,
    expectedTotal: total,
    buyer: { email: 'jane.smith@example.com' },
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: `tx_${reference}`, amount: total } },
  });
  if (placed.status !== 'placed') throw new Error(JSON.stringify(placed));
  await saveOrderRecord({ store, tenant }, { orderId: placed.orderId, checkoutId: reference, profileUrl, placedAt: Date.now() });
  return placed.orderId;
}

async function token(form: Record<string, string>, authorization?: string) {
  const res = await gateway!.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { host: 'shop.example', 'content-type': 'application/x-www-form-urlencoded', ...(authorization && { authorization }) },
    payload: new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, body: res.json<Record<string, string>>() };
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function getOrder(orderId: string, caller: PlatformServer, accessToken: string) {
  const res = await gateway!.app.inject({
    method: 'GET',
    url: `/orders/${orderId}`,
    headers: { host: 'shop.example', 'proto-agent': caller.agent(), 'request-id': randomUUID(), authorization: `Bearer ${accessToken}` },
  });
  const body = res.json();
  return { status: res.statusCode, code: body.messages?.[0]?.code ?? body.code, id: body.id };
}

describe('npm run keys -- oauth-client (client_secret_basic)', () => {
  it('create generates a secret printed once (the credentials file holds only a reference); its token is the platform', async () => {
    const created = await keys(
      'oauth-client',
      'create',
      '--tenant',
      'shop',
      '--profile',
      platform.url(),
      '--auth',
      'client_secret_basic',
      '--name',
      'Web Platform',
    );
    expect(created.code, created.err).toBe(0);
    const { clientId, secret } = created;
    expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    const file = readFileSync(join(dir, 'credentials', 'shop.json'), 'utf8');
    expect(file).not.toContain(secret!);
    expect(JSON.parse(file).oauth_clients[0]).toMatchObject({
      client_id: clientId,
      profile: platform.url(),
      auth_method: 'client_secret_basic',
      client_secret: { file: `../credentials/shop.${clientId}.secret` },
    });
    expect(statSync(join(dir, 'credentials', `shop.${clientId}.secret`)).mode & 0o077).toBe(0);

    await startGateway();
    const issued = await token({ grant_type: 'client_credentials' }, basic(clientId!, secret!));
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const mine = await orderPlacedBy(platform.url());
    const theirs = await orderPlacedBy(other.url());
    expect(await getOrder(mine, platform, issued.body.access_token!)).toMatchObject({ status: 200, id: mine });
    expect(await getOrder(theirs, platform, issued.body.access_token!)).toMatchObject({ status: 200, code: 'unauthorized' });
    // Presented by another platform, the token is refused.
    expect(await getOrder(theirs, other, issued.body.access_token!)).toMatchObject({ status: 403, code: 'credential_profile_mismatch' });
    expect((await token({ grant_type: 'client_credentials' }, basic(clientId!, 'not-the-secret'))).body.error).toBe('invalid_client');

    const listed = await keys('oauth-client', 'list', '--tenant', 'shop');
    expect(listed.out.join('\n')).toContain(`${clientId}  active`);
    expect(listed.out.join('\n')).not.toContain(secret!);

    const revoked = await keys('oauth-client', 'revoke', '--tenant', 'shop', clientId!);
    expect(revoked.code).toBe(0);
    await startGateway(); // the reload
    expect((await token({ grant_type: 'client_credentials' }, basic(clientId!, secret!))).body.error).toBe('invalid_client');
    expect((await keys('oauth-client', 'list', '--tenant', 'shop')).out.join('\n')).toMatch(new RegExp(`${clientId}  revoked `));
  });

  it('takes the secret as an {env} reference, never writing it', async () => {
    const created = await keys(
      'oauth-client',
      'create',
      '--tenant',
      'shop',
      '--profile',
      platform.url(),
      '--auth',
      'client_secret_basic',
      '--secret-env',
      'WEB_SECRET',
    );
    expect(created.code, created.err).toBe(0);
    expect(created.secret).toBeUndefined();
    await expect(startGateway()).rejects.toThrow(/environment variable WEB_SECRET is not set/);
    await startGateway({ WEB_SECRET: 'the-platforms-own-secret' });
    const issued = await token({ grant_type: 'client_credentials' }, basic(created.clientId!, 'the-platforms-own-secret'));
    expect(issued.status).toBe(200);
  });
});

describe('npm run keys -- oauth-client (private_key_jwt)', () => {
  it('registers the public keys of a JWKS file; a client assertion signed with the private key gets the platform a token', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwksFile = join(dir, 'platform.jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'p1', alg: 'ES256', use: 'sig' }] }));
    const created = await keys(
      'oauth-client',
      'create',
      '--tenant',
      'shop',
      '--profile',
      platform.url(),
      '--auth',
      'private_key_jwt',
      '--jwks-file',
      jwksFile,
    );
    expect(created.code, created.err).toBe(0);
    expect(created.secret).toBeUndefined();
    const clientId = created.clientId!;
    await startGateway();
    const assertion = (key = privateKey) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'p1' })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(ISSUER)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('1m')
        .sign(key);
    const form = async (key?: typeof privateKey) => ({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await assertion(key),
    });
    const issued = await token(await form());
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const mine = await orderPlacedBy(platform.url());
    expect(await getOrder(mine, platform, issued.body.access_token!)).toMatchObject({ status: 200, id: mine });
    const stranger = (await generateKeyPair('ES256')).privateKey;
    expect((await token(await form(stranger))).body.error).toBe('invalid_client');
  });

  it('refuses a JWKS file holding a private key, and a JWKS URL that is not https', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwksFile = join(dir, 'private.jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [await exportJWK(privateKey)] }));
    const leaked = await keys(
      'oauth-client',
      'create',
      '--tenant',
      'shop',
      '--profile',
      platform.url(),
      '--auth',
      'private_key_jwt',
      '--jwks-file',
      jwksFile,
    );
    expect(leaked.code).toBe(1);
    expect(leaked.err).toContain('holds private key material');
    const plain = await keys(
      'oauth-client',
      'create',
      '--tenant',
      'shop',
      '--profile',
      platform.url(),
      '--auth',
      'private_key_jwt',
      '--jwks-url',
      'http://platform.example/jwks',
    );
    expect(plain.code).toBe(1);
    expect(plain.err).toContain('an https URL is expected');
    const url = await keys(
      'oauth-client',
      'create',
      '--tenant',
      'shop',
      '--profile',
      platform.url(),
      '--auth',
      'private_key_jwt',
      '--jwks-url',
      'https://platform.example/jwks.json',
    );
    expect(url.code, url.err).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'shop.json'), 'utf8')).oauth_clients[0].jwks_uri).toBe(
      'https://platform.example/jwks.json',
    );
    await startGateway();
  });
});

describe('npm run keys -- oauth-client refusals', () => {
  it('a tenant without identity linking, an unknown tenant, a missing or unknown argument', async () => {
    writeFileSync(join(dir, 'tenants', 'shop.yaml'), tenantFile(false));
    const noServer = await keys('oauth-client', 'create', '--tenant', 'shop', '--profile', platform.url(), '--auth', 'client_secret_basic');
    expect(noServer).toMatchObject({ code: 1 });
    expect(noServer.err).toContain('has no authorization server');
    writeFileSync(join(dir, 'tenants', 'shop.yaml'), tenantFile());
    expect((await keys('oauth-client', 'list', '--tenant', 'nope')).err).toContain('no tenant "nope"');
    expect((await keys('oauth-client', 'create', '--tenant', 'shop', '--profile', platform.url())).code).toBe(2);
    expect((await keys('oauth-client', 'create', '--tenant', 'shop', '--profile', platform.url(), '--auth', 'none')).code).toBe(2);
    const both = await keys('oauth-client', 'create', '--tenant', 'shop', '--profile', platform.url(), '--auth', 'private_key_jwt');
    expect(both.code).toBe(2);
    expect((await keys('oauth-client', 'revoke', '--tenant', 'shop', 'pc_unknown')).err).toContain('has no OAuth client pc_unknown');
    expect((await keys('oauth-client', 'list', '--tenant', 'shop')).out).toEqual(['tenant shop has registered no OAuth clients']);
  });
});

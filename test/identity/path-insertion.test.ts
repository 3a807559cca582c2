/**
 * Tenants behind a path prefix (issuer `https://gw.example/t/acme`): their RFC 8414 metadata is
 * at `/.well-known/oauth-authorization-server/t/acme` and their RFC 9728 metadata at
 * `/.well-known/oauth-protected-resource/t/acme` (path insertion), where openid-client looks.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as oauth from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';

const tenantFile = (id: string) => `id: ${id}
name: Shop ${id}
base_url: https://gw.example/t/${id}
path_prefix: /t/${id}
adapter: { type: memory, settings: { data_dir: ${resolve('config/demo')}, storefront_url: https://gw.example/t/${id}/store } }
capabilities: { dev.proto.shopping.order: {}, dev.proto.common.identity_linking: {} }
signing: { ephemeral_key: true }
policies: { allow_loopback_profiles: true }
`;

const ownDomainFile = `id: own
name: Own Domain Shop
base_url: https://own.example
hosts: [own.example]
adapter: { type: memory, settings: { data_dir: ${resolve('config/demo')}, storefront_url: https://own.example/store } }
capabilities: { dev.proto.shopping.order: {}, dev.proto.common.identity_linking: {} }
signing: { ephemeral_key: true }
`;

let dir: string;
let app: FastifyInstance;
let store: MemoryStore;
let platform: PlatformServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proto-path-insertion-'));
  mkdirSync(join(dir, 'tenants'));
  for (const id of ['acme', 'beta']) writeFileSync(join(dir, 'tenants', `${id}.yaml`), tenantFile(id));
  // Another merchant on its own domain: the prefixed tenants' login pages must not appear there.
  writeFileSync(join(dir, 'tenants', 'own.yaml'), ownDomainFile);
  platform = await startPlatform();
  store = new MemoryStore();
  const tenants = await loadTenants(dir, { env: {}, now: Date.now, store, baseUrl: 'https://gw.example' });
  app = await buildServer({ settings: { bodyLimitBytes: 65_536, logLevel: 'silent' }, tenants, store, jobPollMs: 3_600_000 });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await store?.close();
  await platform?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: 'gw.example' } });

/** fetch for openid-client, answered by the gateway in-process. */
const inject: oauth.CustomFetch = async (url, options) => {
  const target = new URL(url);
  const res = await app.inject({
    method: options.method as 'GET',
    url: target.pathname + target.search,
    headers: { ...options.headers, host: target.host },
  });
  return new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
};

describe('RFC 8414 and RFC 9728 path insertion', () => {
  it('serves each prefixed tenant its authorization server metadata at /.well-known/oauth-authorization-server/<path>', async () => {
    for (const id of ['acme', 'beta']) {
      const res = await get(`/.well-known/oauth-authorization-server/t/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        issuer: `https://gw.example/t/${id}`,
        authorization_endpoint: `https://gw.example/t/${id}/oauth2/authorize`,
        token_endpoint: `https://gw.example/t/${id}/oauth2/token`,
        code_challenge_methods_supported: ['S256'],
      });
    }
    // The location under the prefix keeps working.
    expect((await get('/t/acme/.well-known/oauth-authorization-server')).json().issuer).toBe('https://gw.example/t/acme');
  });

  it('serves the protected resource metadata the same way, and the challenges point there', async () => {
    const res = await get('/.well-known/oauth-protected-resource/t/beta');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ resource: 'https://gw.example/t/beta', authorization_servers: ['https://gw.example/t/beta'] });
    const anonymous = await app.inject({
      method: 'GET',
      url: '/t/beta/orders/ord_x',
      headers: { host: 'gw.example', 'proto-agent': platform.agent(), 'request-id': 'r1' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe(
      'Bearer realm="https://gw.example/t/beta", resource_metadata="https://gw.example/.well-known/oauth-protected-resource/t/beta"',
    );
  });

  it("a prefixed tenant's authorization server and login page never answer on another merchant's domain", async () => {
    const onOwn = (url: string) => app.inject({ method: 'GET', url, headers: { host: 'own.example' } });
    expect((await onOwn('/.well-known/oauth-authorization-server/t/acme')).statusCode).toBe(404);
    expect((await onOwn('/t/acme/.well-known/oauth-authorization-server')).statusCode).toBe(404);
    const authorize = await onOwn('/t/acme/oauth2/authorize?client_id=x&response_type=code');
    expect(authorize.statusCode).toBe(404);
    expect(authorize.body).not.toContain('Shop acme');
    // The domain's own tenant still has its own.
    expect((await onOwn('/.well-known/oauth-authorization-server')).json().issuer).toBe('https://own.example');
  });

  it('a path no tenant has is 404', async () => {
    expect((await get('/.well-known/oauth-authorization-server/t/nobody')).statusCode).toBe(404);
    expect((await get('/.well-known/oauth-protected-resource/t/acme/more')).statusCode).toBe(404);
  });

  it("openid-client's discovery finds a prefixed tenant's metadata (issuer with a path)", async () => {
    const config = await oauth.discovery(new URL('https://gw.example/t/acme'), 'any-client', undefined, oauth.None(), {
      algorithm: 'oauth2',
      [oauth.customFetch]: inject,
    });
    expect(config.serverMetadata().issuer).toBe('https://gw.example/t/acme');
    expect(config.serverMetadata().revocation_endpoint).toBe('https://gw.example/t/acme/oauth2/revoke');
  });
});

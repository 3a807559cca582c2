/**
 * Transports are encapsulated Fastify plugins (docs/architecture.md, "Adding a transport"): one
 * registered next to the others gets the cross-cutting hooks (tenant routing, Request-Id, the
 * JSON body parser, the protocol's error shape) and keeps what it adds to its own scope.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';

const FORM = 'application/x-www-form-urlencoded';

/** A transport of its own: it reads form bodies, which no other transport accepts. */
async function echoTransport(scope: FastifyInstance): Promise<void> {
  scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  scope.post('/echo', async (req) => ({ tenant: req.tenant?.id, body: req.body }));
}

describe('a transport registered as a plugin', () => {
  let app: FastifyInstance;
  const store = new MemoryStore();
  const post = (url: string, contentType: string, payload: string) =>
    app.inject({ method: 'POST', url, headers: { host: 'shop.example', 'content-type': contentType }, payload });

  beforeAll(async () => {
    const tenant = assembleTenant({ config: baseTenantConfig, file: 'test/tenant.yaml' }, stubAdapter(), {});
    const logStream = new Writable({ write: (_chunk, _encoding, done) => done() });
    app = await buildServer({
      settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
      tenants: new TenantRegistry([tenant]),
      store,
      logStream,
      jobPollMs: 3_600_000,
    });
    await app.register(echoTransport);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('gets the tenant, a Request-Id and the gateway JSON parser', async () => {
    const res = await post('/echo', 'application/json', '{"roses":3}');
    expect(res.statusCode).toBe(200);
    expect(res.headers['request-id']).toEqual(expect.any(String));
    expect(res.json()).toEqual({ tenant: 'shop', body: { roses: 3 } });
  });

  it("answers errors in the protocol's shape", async () => {
    const res = await post('/echo', 'application/json', '{"roses":');
    expect([res.statusCode, res.json().code]).toEqual([400, 'invalid_json']);
  });

  it('keeps its own body parser to itself: the REST transport still refuses form bodies', async () => {
    expect((await post('/echo', FORM, 'roses=3')).json()).toEqual({ tenant: 'shop', body: { roses: '3' } });
    const rest = await post('/carts', FORM, 'roses=3');
    expect([rest.statusCode, rest.json().code]).toEqual([415, 'unsupported_media_type']);
  });
});

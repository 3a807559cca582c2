/**
 * The gateway at the merchant's own origin: a tenant with `front_door` passes every path the
 * gateway does not answer through to its store's site (a real HTTP server on loopback), over a
 * real socket, so streaming, Host and X-Forwarded-* are what a browser would get.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { TenantConfig as TenantConfigSchema } from '../../src/config/tenant-schema.js';
import type { TrustProxy } from '../../src/config/env.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { compile } from '../../schemas/validator.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { stubAdapter } from '../helpers/stub-adapter.js';
import { echo, startStorefront, type StorefrontServer } from './storefront-server.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Call {
  method?: string;
  path: string;
  host: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function send(port: number, { method = 'GET', path, host, headers = {}, body }: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const tenant = (config: Partial<TenantConfig>) =>
  assembleTenant({ config: { ...baseTenantConfig, ...config }, file: 'test/front-door.yaml' }, stubAdapter());

async function listen(
  tenants: ReturnType<typeof tenant>[],
  trustProxy: TrustProxy = false,
): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
    tenants: new TenantRegistry(tenants),
    store: new MemoryStore(),
    trustProxy,
    jobPollMs: 3_600_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
/** Chunk i of the large bodies: different bytes in every chunk, so a lost or repeated chunk changes the hash. */
const chunkAt = (i: number) =>
  createHash('sha512')
    .update(String(i))
    .digest()
    .toString('hex')
    .repeat(CHUNK / 128)
    .slice(0, CHUNK);

describe('front door: the gateway at the merchant own origin', () => {
  let store: StorefrontServer;
  let otherStore: StorefrontServer;
  let platform: PlatformServer;
  let gateway: { app: FastifyInstance; port: number };
  let port: number;
  let downPort: number;

  beforeAll(async () => {
    store = await startStorefront('Flower Shop');
    otherStore = await startStorefront('Tea House');
    platform = await startPlatform();
    downPort = await closedPort();
    gateway = await listen([
      tenant({
        id: 'flowers',
        name: 'Flower Shop',
        base_url: 'https://flowers.test',
        hosts: ['flowers.test'],
        front_door: { upstream: store.origin },
      }),
      tenant({
        id: 'limited',
        name: 'Busy Shop',
        base_url: 'https://busy.test',
        hosts: ['busy.test'],
        front_door: { upstream: store.origin },
        policies: { allow_loopback_profiles: true, rate_limits: { per_tenant: { max: 1, window_seconds: 3600 } } },
      }),
      tenant({
        id: 'tea',
        name: 'Tea House',
        base_url: 'https://tea.test',
        hosts: ['tea.test'],
        front_door: { upstream: otherStore.origin, preserve_host: true },
      }),
      tenant({ id: 'plain', name: 'Plain Shop', base_url: 'https://plain.test', hosts: ['plain.test'] }),
      tenant({
        id: 'down',
        name: 'Closed <Shop>',
        base_url: 'https://down.test',
        hosts: ['down.test'],
        front_door: { upstream: `http://127.0.0.1:${downPort}` },
      }),
      tenant({
        id: 'slow',
        name: 'Slow Shop',
        base_url: 'https://slow.test',
        hosts: ['slow.test'],
        front_door: { upstream: store.origin, timeout_ms: 200 },
      }),
    ]);
    port = gateway.port;
  });

  afterAll(async () => {
    await gateway?.app.close();
    await Promise.all([store?.close(), otherStore?.close(), platform?.close()]);
  });

  it('passes an HTML page through with its status and headers', async () => {
    const answer = await send(port, { path: '/', host: 'flowers.test' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('max-age=60');
    expect(answer.headers['x-store']).toBe('Flower Shop');
    expect(answer.headers.via).toMatch(/proto-gateway/);
    expect(answer.body.toString()).toContain('<h1>Welcome to Flower Shop</h1>');
  });

  it('passes any method, path and query through unchanged, with the store’s 404 pages too', async () => {
    const answer = await send(port, { method: 'DELETE', path: '/echo?b=2&a=1+1&flag', host: 'flowers.test' });
    expect(json(answer)).toMatchObject({ method: 'DELETE', url: '/echo?b=2&a=1+1&flag' });
    const missing = await send(port, { path: '/collections/roses', host: 'flowers.test' });
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe('<h1>Flower Shop: no such page</h1>');
    // A protocol path with a method the gateway does not serve there is the store's.
    const wrongMethod = await send(port, { path: '/carts', host: 'flowers.test' });
    expect(wrongMethod.body.toString()).toBe('<h1>Flower Shop: no such page</h1>');
  });

  it('refuses a path that would climb out of the store’s root before it reaches the store', async () => {
    const before = store.seen.length;
    for (const path of ['/a/../../etc/passwd', '//evil.example/x']) {
      const answer = await send(port, { path, host: 'flowers.test' });
      expect(answer.status).toBe(400);
    }
    expect(store.seen.length).toBe(before);
  });

  // One normalisation before routing (RFC 3986: unreserved escapes decoded, dot segments removed):
  // a protocol path spelt otherwise is the gateway's, and the store gets exactly the routed path.
  it.each([
    ['/x/%2e/y', '/x/y'],
    ['/x/%2E/y?a=%2e', '/x/y?a=%2e'],
    ['/x/./y', '/x/y'],
    ['/x/%2e%2e/y', '/y'],
    ['/x/.%2E/y', '/y'],
    ['/x/%2e/%2e/y', '/x/y'],
    ['/%7Emerchant/%61bout', '/~merchant/about'],
    ['/x/%252e/y', '/x/%252e/y'], // a doubled escape is decoded once: %25 stays
    ['/x/%2f/y', '/x/%2F/y'], // reserved escapes stay escaped
    ['/x/y/%2e', '/x/y/'],
  ])('passes %s to the store as the path it was routed by, %s', async (path, routed) => {
    const before = store.seen.length;
    await send(port, { path, host: 'flowers.test' });
    expect(store.seen.slice(before).map((seen) => seen.url)).toEqual([routed]);
  });

  it.each([
    ['GET', '/%2e/.well-known/proto', 200],
    ['GET', '/.well-known/%70roto', 200],
    ['GET', '/%2e/mcp', 405],
    ['GET', '/%2E/%6dcp', 405],
    ['GET', '/x/%2e%2e/mcp', 405],
    ['GET', '/x/../mcp', 405],
    ['POST', '/%2E/checkout-sessions', 400],
    ['POST', '/x/.%2e/checkout-sessions', 400],
    ['GET', '/%2e/healthz', 200],
  ])('answers %s %s itself, as the protocol path it normalises to', async (method, path, status) => {
    const before = store.seen.length;
    const answer = await send(port, {
      method,
      path,
      host: 'flowers.test',
      ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: '{}' }),
    });
    expect(answer.status).toBe(status);
    expect(answer.headers.via).toBeUndefined();
    expect(store.seen.length).toBe(before);
  });

  it('refuses an encoded or doubled climb above the root before it reaches the store', async () => {
    const before = store.seen.length;
    for (const path of ['/%2e%2e/etc/passwd', '/.%2E/mcp', '/x/%2E%2E/%2e%2e/mcp']) {
      expect((await send(port, { path, host: 'flowers.test' })).status, path).toBe(400);
    }
    expect(store.seen.length).toBe(before);
  });

  it('leaves out the store’s hop-by-hop headers', async () => {
    store.serve('/hops', (_req, res) => {
      res
        .writeHead(200, { connection: 'keep-alive, x-hop', 'keep-alive': 'timeout=1', 'x-hop': 'store-internal', 'x-kept': 'yes' })
        .end('ok');
    });
    const answer = await send(port, { path: '/hops', host: 'flowers.test' });
    expect(answer.headers['x-kept']).toBe('yes');
    expect(answer.headers['x-hop']).toBeUndefined();
    expect(answer.headers['keep-alive']).not.toBe('timeout=1');
  });

  it('streams a POST body through as sent, whatever its type (the gateway parses none of it)', async () => {
    const form = 'name=Ada&note=%7B%22not%22%3A+json';
    const posted = await send(port, {
      method: 'POST',
      path: '/echo',
      host: 'flowers.test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(json(posted)).toMatchObject({ method: 'POST', bytes: form.length, sha256: createHash('sha256').update(form).digest('hex') });
    // A body the gateway's JSON parser would refuse (not JSON at all) reaches the store untouched.
    const notJson = '{"unterminated": ';
    const asJson = await send(port, {
      method: 'PUT',
      path: '/echo',
      host: 'flowers.test',
      headers: { 'content-type': 'application/ld+json' },
      body: notJson,
    });
    expect(asJson.status).toBe(200);
    expect(json(asJson)).toMatchObject({ bytes: notJson.length, sha256: createHash('sha256').update(notJson).digest('hex') });
  });

  it('passes a request carrying hop-by-hop fields (curl’s Expect: 100-continue, an old client’s Keep-Alive)', async () => {
    const body = 'x'.repeat(2 * CHUNK);
    const answer = await send(port, {
      method: 'POST',
      path: '/echo',
      host: 'flowers.test',
      headers: { expect: '100-continue', 'keep-alive': 'timeout=5', te: 'trailers', 'proxy-authorization': 'Basic c2VjcmV0' },
      body,
    });
    expect(answer.status).toBe(200);
    const seen = json(answer);
    expect(seen.bytes).toBe(body.length);
    expect(seen.headers).not.toHaveProperty('proxy-authorization');
    expect(seen.headers).not.toHaveProperty('keep-alive');
  });

  it('rewrites a redirect to the store’s origin onto the merchant’s, and keeps relative and foreign ones', async () => {
    store.serve('/account', (_req, res) => res.writeHead(302, { location: `${store.origin}/account/login?return_to=%2Fcart#top` }).end());
    store.serve('/cart/checkout', (_req, res) => res.writeHead(303, { location: '/checkouts/c1?step=contact' }).end());
    store.serve('/pay', (_req, res) => res.writeHead(302, { location: 'https://payments.example/session/9' }).end());
    expect((await send(port, { path: '/account', host: 'flowers.test' })).headers.location).toBe(
      'http://flowers.test/account/login?return_to=%2Fcart#top',
    );
    expect((await send(port, { path: '/cart/checkout', host: 'flowers.test' })).headers.location).toBe('/checkouts/c1?step=contact');
    expect((await send(port, { path: '/pay', host: 'flowers.test' })).headers.location).toBe('https://payments.example/session/9');
  });

  it('passes the store’s cookies through, host-only where their domain is not the merchant’s', async () => {
    store.serve('/login', (_req, res) => {
      res.setHeader('set-cookie', [
        'session=abc; Path=/; HttpOnly; Secure',
        'cart=1; Domain=store-origin.example; Path=/',
        'pref=x; Domain=.flowers.test; Path=/',
      ]);
      res.writeHead(200).end('ok');
    });
    const answer = await send(port, { path: '/login', host: 'flowers.test', headers: { cookie: 'session=old' } });
    expect(answer.headers['set-cookie']).toEqual([
      'session=abc; Path=/; HttpOnly; Secure',
      'cart=1; Path=/',
      'pref=x; Domain=.flowers.test; Path=/',
    ]);
    expect(store.seen.at(-1)!.headers.cookie).toBe('session=old');
  });

  it('streams a 20 MB download through: the first chunk arrives before the store has sent the rest', async () => {
    let clientHasFirst!: () => void;
    const firstArrived = new Promise<void>((resolve) => (clientHasFirst = resolve));
    const sent = createHash('sha256');
    store.serve('/catalog.zip', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      for (let i = 0; i < (20 * MB) / CHUNK; i++) {
        const chunk = chunkAt(i);
        sent.update(chunk);
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
        // A gateway that buffered the answer would never hand the client this chunk: the store waits for it.
        if (i === 0) await firstArrived;
      }
      res.end();
    });
    const received = createHash('sha256');
    let bytes = 0;
    const status = await new Promise<number>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/catalog.zip', headers: { host: 'flowers.test' } }, (res: IncomingMessage) => {
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) clientHasFirst();
          bytes += chunk.length;
          received.update(chunk);
        });
        res.on('end', () => resolve(res.statusCode!));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    expect(bytes).toBe(20 * MB);
    expect(received.digest('hex')).toBe(sent.digest('hex'));
  });

  it('streams a 20 MB upload through: the store sees the first chunk before the client sends the rest', async () => {
    let storeHasFirst!: () => void;
    const firstArrived = new Promise<void>((resolve) => (storeHasFirst = resolve));
    store.serve('/upload', (req, res) => {
      req.once('data', () => storeHasFirst());
      echo(req, res);
    });
    const sent = createHash('sha256');
    const answer = await new Promise<Answer>((resolve, reject) => {
      // application/json: the gateway's own JSON parser would refuse this body (64 KB limit) if it read it.
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/upload', headers: { host: 'flowers.test', 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      void (async () => {
        for (let i = 0; i < (20 * MB) / CHUNK; i++) {
          const chunk = chunkAt(i);
          sent.update(chunk);
          if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
          if (i === 0) await firstArrived;
        }
        req.end();
      })();
    });
    expect(answer.status).toBe(200);
    expect(json(answer)).toMatchObject({ bytes: 20 * MB, sha256: sent.digest('hex') });
  });

  it('sends the store its own Host and the client in X-Forwarded-For/-Proto/-Host, dropping forged values', async () => {
    const answer = json(
      await send(port, {
        path: '/echo',
        host: 'flowers.test',
        headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'evil.test', forwarded: 'for=6.6.6.6' },
      }),
    );
    const headers = answer.headers as Record<string, string>;
    expect(headers.host).toBe(new URL(store.origin).host);
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe('flowers.test');
    expect(headers.forwarded).toBeUndefined();
    expect(headers.via).toBe('1.1 proto-gateway');
  });

  it('sends the merchant’s Host to a store that asks for it (preserve_host), each tenant to its own store', async () => {
    const answer = json(await send(port, { path: '/echo', host: 'tea.test' }));
    expect((answer.headers as Record<string, string>).host).toBe('tea.test');
    expect((await send(port, { path: '/', host: 'tea.test' })).body.toString()).toContain('Welcome to Tea House');
    expect((await send(port, { path: '/', host: 'flowers.test' })).body.toString()).toContain('Welcome to Flower Shop');
  });

  it('answers a 502 HTML page when the store is down, and keeps serving', async () => {
    const answer = await send(port, { path: '/products/rose', host: 'down.test' });
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    const page = answer.body.toString();
    expect(page).toContain('The store is not answering');
    expect(page).toContain('Closed &lt;Shop&gt;'); // the name is escaped
    expect(page).toContain(String(answer.headers['request-id']));
    const post = await send(port, {
      method: 'POST',
      path: '/cart/add',
      host: 'down.test',
      headers: { 'content-type': 'application/json' },
      body: '{"id":1}',
    });
    expect(post.status).toBe(502);
    expect((await send(port, { path: '/healthz', host: 'down.test' })).status).toBe(200);
  });

  it('answers a 504 HTML page when the store takes longer than the tenant allows', async () => {
    store.serve('/slow', () => undefined); // never answers
    const answer = await send(port, { path: '/slow', host: 'slow.test' });
    expect(answer.status).toBe(504);
    expect(answer.body.toString()).toContain('The store is taking too long');
  });

  it('survives a store that dies in the middle of its answer, and a buyer who leaves in the middle of one', async () => {
    store.serve('/broken', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
      res.write('<h1>half a page');
      setImmediate(() => res.destroy());
    });
    // The status was already sent: the buyer's connection is cut rather than given a short page.
    await expect(send(port, { path: '/broken', host: 'flowers.test' })).rejects.toThrow();
    store.serve('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const more = () => (res.write(chunkAt(0)) ? setImmediate(more) : res.once('drain', more));
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/endless', headers: { host: 'flowers.test' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    expect((await send(port, { path: '/', host: 'flowers.test' })).status).toBe(200);
  });

  it('shows the store’s own 503 page rather than asking again', async () => {
    let asked = 0;
    store.serve('/maintenance', (_req, res) => {
      asked++;
      res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '120' }).end('<h1>Back soon</h1>');
    });
    const answer = await send(port, { path: '/maintenance', host: 'flowers.test' });
    expect(answer.status).toBe(503);
    expect(answer.body.toString()).toBe('<h1>Back soon</h1>');
    expect(asked).toBe(1);
  });

  it('still answers the protocol paths itself on that tenant', async () => {
    const before = store.seen.length;
    const profile = await send(port, { path: '/.well-known/proto', host: 'flowers.test' });
    expect(profile.status).toBe(200);
    expect(json(profile)).toHaveProperty('proto.version', '2026-04-08');
    const mcp = await send(port, {
      method: 'POST',
      path: '/mcp',
      host: 'flowers.test',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(json(mcp)).toMatchObject({ jsonrpc: '2.0', id: 1 });
    const rest = await send(port, {
      method: 'POST',
      path: '/carts',
      host: 'flowers.test',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json(rest)).toMatchObject({ code: 'missing_request_id' });
    expect((await send(port, { path: '/healthz', host: 'flowers.test' })).status).toBe(200);
    expect((await send(port, { path: '/order-status/unknown', host: 'flowers.test' })).headers.via).toBeUndefined();
    expect(
      (
        await send(port, {
          method: 'POST',
          path: '/webhooks/backend',
          host: 'flowers.test',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).headers.via,
    ).toBeUndefined();
    expect(store.seen.length).toBe(before);
  });

  it('spends no protocol rate-limit budget on passed-through traffic', async () => {
    // busy.test allows 1 call per hour for all callers together.
    for (let i = 0; i < 3; i++)
      expect((await send(port, { method: i ? 'POST' : 'GET', path: '/echo', host: 'busy.test' })).status).toBe(200);
    const call = () =>
      send(port, {
        path: '/checkout-sessions/chk_unknown',
        host: 'busy.test',
        headers: { 'request-id': `r-${Math.random()}`, 'proto-agent': platform.agent() },
      });
    const first = await call();
    expect(first.status).toBe(200);
    expect(json(first)).toMatchObject({ proto: { status: 'error' }, messages: [{ code: 'not_found' }] });
    expect((await call()).status).toBe(429); // the limit is real: the one call spent it
  });

  it('keeps the 404 of a tenant without front_door, for any method', async () => {
    const get = await send(port, { path: '/collections/roses', host: 'plain.test' });
    expect(get.status).toBe(404);
    expect(json(get)).toEqual({ code: 'not_found', content: 'no endpoint GET /collections/roses' });
    const post = await send(port, {
      method: 'POST',
      path: '/cart/add',
      host: 'plain.test',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(json(post)).toEqual({ code: 'not_found', content: 'no endpoint POST /cart/add' });
    expect((await send(port, { path: '/', host: 'unknown.test' })).status).toBe(404);
  });

  it('refuses to pass a request that already went through a proto gateway (a loop) with a 508 page', async () => {
    const before = store.seen.length;
    const answer = await send(port, { path: '/', host: 'flowers.test', headers: { via: '1.1 cdn, 1.1 proto-gateway' } });
    expect(answer.status).toBe(508);
    expect(answer.body.toString()).toContain('points back at this gateway');
    expect(store.seen.length).toBe(before);
  });
});

describe('front door behind a trusted proxy', () => {
  it('keeps the trusted X-Forwarded-For chain and redirects to the origin the proxy was reached at', async () => {
    const store = await startStorefront('Flower Shop');
    const { app, port } = await listen(
      [tenant({ id: 'flowers', hosts: ['flowers.test'], front_door: { upstream: store.origin } })],
      ['127.0.0.1'],
    );
    try {
      store.serve('/account', (_req, res) => res.writeHead(302, { location: `${store.origin}/account/login` }).end());
      const forwarded = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'www.flowers.test' };
      const headers = json(await send(port, { path: '/echo', host: 'flowers.test', headers: forwarded })).headers as Record<string, string>;
      expect(headers['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
      expect(headers['x-forwarded-proto']).toBe('https');
      expect(headers['x-forwarded-host']).toBe('www.flowers.test');
      expect((await send(port, { path: '/account', host: 'flowers.test', headers: forwarded })).headers.location).toBe(
        'https://www.flowers.test/account/login',
      );
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('front door pointed back at the gateway', () => {
  it('stops after one round with the 508 page instead of looping', async () => {
    const { app, port } = await listen([tenant({ id: 'placeholder', hosts: ['placeholder.test'] })]);
    try {
      // The store's address is the gateway's own, and the store is sent the merchant's Host: the same tenant again.
      app.tenants.registry = new TenantRegistry([
        tenant({ id: 'loop', hosts: ['loop.test'], front_door: { upstream: `http://127.0.0.1:${port}`, preserve_host: true } }),
      ]);
      const answer = await send(port, { path: '/', host: 'loop.test' });
      expect(answer.status).toBe(508);
      expect(answer.body.toString()).toContain('points back at this gateway');
      expect(answer.headers.via).toBe('1.1 proto-gateway');
    } finally {
      await app.close();
    }
  });
});

describe('front door to an https store', () => {
  it('verifies the store’s certificate: a self-signed one gets the 502 page, not the page behind it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'front-door-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    const impostor = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.end('<h1>not the real store</h1>'),
    );
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const upstream = `https://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    const { app, port } = await listen([tenant({ id: 'flowers', hosts: ['flowers.test'], front_door: { upstream } })]);
    try {
      const answer = await send(port, { path: '/', host: 'flowers.test' });
      expect(answer.status).toBe(502);
      expect(answer.body.toString()).not.toContain('not the real store');
    } finally {
      await app.close();
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('front_door in the tenant file', () => {
  const validate = compile<TenantConfig>(TenantConfigSchema);
  const check = (front_door: unknown) => validate({ ...baseTenantConfig, front_door });

  it('accepts an https origin, or plain http on loopback', () => {
    expect(check({ upstream: 'https://shop.example.com' }).ok).toBe(true);
    expect(check({ upstream: 'https://shop.example.com:8443/', preserve_host: true, timeout_ms: 5000 }).ok).toBe(true);
    expect(check({ upstream: 'http://127.0.0.1:8080' }).ok).toBe(true);
    expect(check({ upstream: 'http://localhost:3000' }).ok).toBe(true);
  });

  it.each([
    'http://shop.example.com',
    'https://shop.example.com/store',
    'https://user:pw@shop.example.com',
    'https://shop.example.com?x=1',
    'ftp://shop.example.com',
  ])('refuses %s', (upstream) => {
    const result = check({ upstream });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.message).toBe(
        '$.front_door.upstream must be an https origin without user, path or query (plain http only on loopback)',
      );
  });
});

/**
 * Shopify's error shapes, answered by a local server standing in for the shop (the tenant's
 * `api_origin`) where a simulator is awkward: what the adapter makes of each is what the gateway
 * retries (and how soon) or gives up on.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../../adapters/contract.js';
import { ShopifyAdapter } from '../../../adapters/shopify/index.js';
import { withDefaults } from '../../../adapters/shopify/settings.js';

const SHOP = 'petal-errors.myshopify.com';
const ADMIN = '/admin/api/2026-10/graphql.json';
const STOREFRONT = '/api/2026-10/graphql.json';
const TOKENS = { storefront_token: 'shpat_storefront_secret_123', admin_token: 'shpat_admin_secret_456', webhook_secret: 'whsec_789' };
const APP = { storefront_token: TOKENS.storefront_token, client_id: 'app_client_id', client_secret: 'app_client_secret_abc' };
const GRANT = '/admin/oauth/access_token';

/** One answer to the next call to a path: status, body (JSON unless text) and headers; `drop` closes the connection unanswered. */
type Reply = { status: number; body: unknown; headers?: Record<string, string>; delayMs?: number } | 'drop';
const replies = new Map<string, Array<(req: IncomingMessage) => Reply>>();
const reply = (path: string, answer: Reply | ((req: IncomingMessage) => Reply)) =>
  replies.set(path, [...(replies.get(path) ?? []), typeof answer === 'function' ? answer : () => answer]);

let server: Server;
let origin: string;
let adapter: ShopifyAdapter;

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = replies.get(req.url ?? '')?.shift()?.(req) ?? { status: 404, body: 'no reply set for this call' };
    if (answer === 'drop') return void req.socket.destroy();
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const send = () => void res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(text);
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  adapter = new ShopifyAdapter(withDefaults({ shop: SHOP, api_origin: origin }), TOKENS);
});
afterEach(() => replies.clear());
afterAll(async () => {
  await adapter.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failure(call: Promise<unknown>): Promise<BackendError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackendError);
  const text = `${(error as Error).message} ${JSON.stringify(error)}`;
  for (const secret of [...Object.values(TOKENS), ...Object.values(APP)]) expect(text).not.toContain(secret);
  return error as BackendError;
}

describe('Shopify error shapes', () => {
  it('Admin cost throttling (HTTP 200, THROTTLED): retry after the bucket refills', async () => {
    reply(ADMIN, {
      status: 200,
      body: {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        extensions: {
          cost: {
            requestedQueryCost: 50,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 10, restoreRate: 100 },
          },
        },
      },
    });
    const error = await failure(adapter.ping());
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 400 });
  });

  it('Storefront 429 with Retry-After, and 430: retry later', async () => {
    reply(STOREFRONT, { status: 429, body: { errors: 'Throttled' }, headers: { 'Retry-After': '2' } });
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({ retryable: true, retryAfterMs: 2000 });
    reply(STOREFRONT, { status: 430, body: 'Security Rejection', headers: { 'content-type': 'text/plain' } });
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({ retryable: true });
  });

  it('5xx and an unreachable shop: retry', async () => {
    reply(STOREFRONT, { status: 502, body: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } });
    expect(await failure(adapter.lookup(['gid://shopify/Product/1']))).toMatchObject({ retryable: true });
    reply(ADMIN, 'drop');
    expect(await failure(adapter.getOrder('1'))).toMatchObject({ retryable: true });
  });

  it('garbage, refused credentials and GraphQL errors: give up, with no token in the error', async () => {
    reply(STOREFRONT, { status: 200, body: '<!DOCTYPE html><html></html>' });
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({
      retryable: false,
      message: expect.stringMatching(/not GraphQL JSON/),
    });
    reply(ADMIN, { status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } });
    expect(await failure(adapter.ping())).toMatchObject({ retryable: false, message: expect.stringMatching(/credentials/) });
    reply(ADMIN, {
      status: 200,
      body: { errors: [{ message: "Field 'x' doesn't exist on type 'Shop'", extensions: { code: 'undefinedField' } }] },
    });
    expect(await failure(adapter.ping())).toMatchObject({ retryable: false });
  });

  it('an error text where GraphQL errors belong, in a plain or a deferred answer: give up', async () => {
    reply(STOREFRONT, { status: 200, body: { errors: 'Internal error' } });
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({ retryable: false });
    reply(STOREFRONT, { status: 200, body: { errors: 'Internal error' } });
    const quote = adapter.quote({ lines: [{ lineId: 'a', variantId: 'gid://shopify/ProductVariant/1', quantity: 1 }], discountCodes: [] });
    expect(await failure(quote)).toMatchObject({ retryable: false });
  });

  it('a call past its deadline is abandoned', async () => {
    reply(ADMIN, { status: 200, body: { data: { shop: { id: 'gid://shopify/Shop/1' } } }, delayMs: 5_000 });
    const error = await failure(adapter.ping(AbortSignal.timeout(50)));
    expect(error.retryable).toBe(true);
  });

  it('sends the private Storefront token and the Admin token in their own headers only', async () => {
    const seen: Record<string, string | undefined> = {};
    reply(STOREFRONT, (req) => {
      seen.storefront = req.headers['shopify-storefront-private-token'] as string | undefined;
      seen.leak = req.headers['x-shopify-access-token'] as string | undefined;
      return { status: 200, body: { data: { product: null } } };
    });
    reply(ADMIN, (req) => {
      seen.admin = req.headers['x-shopify-access-token'] as string | undefined;
      return { status: 200, body: { data: { productVariants: { nodes: [] } } } };
    });
    expect(await adapter.lookup(['no-such-handle'])).toEqual([]);
    expect(seen).toEqual({ storefront: TOKENS.storefront_token, leak: undefined, admin: TOKENS.admin_token });
  });

  it('the client-credentials grant: throttled or failing, retry; refused or garbage, give up, with no secret in the error', async () => {
    const app = new ShopifyAdapter(withDefaults({ shop: SHOP, api_origin: origin }), APP);
    try {
      reply(GRANT, { status: 429, body: { errors: 'Too many requests' }, headers: { 'Retry-After': '3' } });
      expect(await failure(app.ping())).toMatchObject({ retryable: true, retryAfterMs: 3000 });
      reply(GRANT, { status: 503, body: '<html>Service Unavailable</html>', headers: { 'content-type': 'text/html' } });
      expect(await failure(app.ping())).toMatchObject({ retryable: true });
      reply(GRANT, { status: 400, body: { error: 'invalid_client', error_description: 'Client authentication failed' } });
      expect(await failure(app.ping())).toMatchObject({
        retryable: false,
        message: 'Shopify refused the client-credentials grant (invalid_client): check client_id and client_secret',
      });
      reply(GRANT, { status: 200, body: '<!DOCTYPE html><html></html>', headers: { 'content-type': 'text/html' } });
      expect(await failure(app.ping())).toMatchObject({
        retryable: false,
        message: expect.stringMatching(/refused the client-credentials grant/),
      });
    } finally {
      await app.close();
    }
  });

  it('the client-credentials grant: a JSON request, and the Admin API called with the token it answers', async () => {
    const app = new ShopifyAdapter(withDefaults({ shop: SHOP, api_origin: origin }), APP);
    let granted: unknown;
    let token: unknown;
    reply(GRANT, (req) => {
      granted = req.headers['content-type'];
      return { status: 200, body: { access_token: 'shpat_granted_1', scope: 'read_orders', expires_in: 86_399 } };
    });
    reply(ADMIN, (req) => {
      token = req.headers['x-shopify-access-token'];
      return { status: 200, body: { data: { shop: { id: 'gid://shopify/Shop/1' } } } };
    });
    try {
      await app.ping();
      expect([granted, token]).toEqual(['application/json', 'shpat_granted_1']);
    } finally {
      await app.close();
    }
  });
});

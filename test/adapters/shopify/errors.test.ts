/**
 * Shopify's error shapes, answered by nock where a simulator is awkward: what the adapter makes
 * of each is what the gateway retries (and how soon) or gives up on.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../../adapters/contract.js';
import { ShopifyAdapter } from '../../../adapters/shopify/index.js';
import { withDefaults } from '../../../adapters/shopify/settings.js';

const SHOP = 'petal-errors.myshopify.com';
const ADMIN = '/admin/api/2026-10/graphql.json';
const STOREFRONT = '/api/2026-10/graphql.json';
const TOKENS = { storefront_token: 'shpat_storefront_secret_123', admin_token: 'shpat_admin_secret_456', webhook_secret: 'whsec_789' };

const adapter = new ShopifyAdapter(withDefaults({ shop: SHOP }), TOKENS);
const shop = () => nock(`https://${SHOP}`);

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

async function failure(call: Promise<unknown>): Promise<BackendError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackendError);
  const text = `${(error as Error).message} ${JSON.stringify(error)}`;
  for (const secret of Object.values(TOKENS)) expect(text).not.toContain(secret);
  return error as BackendError;
}

describe('Shopify error shapes', () => {
  it('Admin cost throttling (HTTP 200, THROTTLED): retry after the bucket refills', async () => {
    shop()
      .post(ADMIN)
      .reply(200, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        extensions: {
          cost: {
            requestedQueryCost: 50,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 10, restoreRate: 100 },
          },
        },
      });
    const error = await failure(adapter.ping());
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 400 });
  });

  it('Storefront 429 with Retry-After, and 430: retry later', async () => {
    shop().post(STOREFRONT).reply(429, { errors: 'Throttled' }, { 'Retry-After': '2' });
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({ retryable: true, retryAfterMs: 2000 });
    shop().post(STOREFRONT).reply(430, 'Security Rejection');
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({ retryable: true });
  });

  it('5xx and an unreachable shop: retry', async () => {
    shop().post(STOREFRONT).reply(502, '<html>Bad Gateway</html>', { 'content-type': 'text/html' });
    expect(await failure(adapter.lookup(['gid://shopify/Product/1']))).toMatchObject({ retryable: true });
    shop().post(ADMIN).replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
    expect(await failure(adapter.getOrder('1'))).toMatchObject({ retryable: true });
  });

  it('garbage, refused credentials and GraphQL errors: give up, with no token in the error', async () => {
    shop().post(STOREFRONT).reply(200, '<!DOCTYPE html><html></html>', { 'content-type': 'application/json' });
    expect(await failure(adapter.search({ text: 'roses', limit: 5 }))).toMatchObject({
      retryable: false,
      message: expect.stringMatching(/not GraphQL JSON/),
    });
    shop().post(ADMIN).reply(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    expect(await failure(adapter.ping())).toMatchObject({ retryable: false, message: expect.stringMatching(/credentials/) });
    shop()
      .post(ADMIN)
      .reply(200, { errors: [{ message: "Field 'x' doesn't exist on type 'Shop'", extensions: { code: 'undefinedField' } }] });
    expect(await failure(adapter.ping())).toMatchObject({ retryable: false });
  });

  it('a call past its deadline is abandoned', async () => {
    shop()
      .post(ADMIN)
      .delay(5_000)
      .reply(200, { data: { shop: { id: 'gid://shopify/Shop/1' } } });
    const error = await failure(adapter.ping(AbortSignal.timeout(50)));
    expect(error.retryable).toBe(true);
  });

  it('sends the private Storefront token and the Admin token in their own headers only', async () => {
    const seen: Record<string, string | undefined> = {};
    shop()
      .post(STOREFRONT)
      .reply(function reply() {
        seen.storefront = this.req.headers['shopify-storefront-private-token'];
        seen.leak = this.req.headers['x-shopify-access-token'];
        return [200, { data: { product: null } }];
      });
    shop()
      .post(ADMIN)
      .reply(function reply() {
        seen.admin = this.req.headers['x-shopify-access-token'];
        return [200, { data: { productVariants: { nodes: [] } } }];
      });
    expect(await adapter.lookup(['no-such-handle'])).toEqual([]);
    expect(seen).toEqual({ storefront: TOKENS.storefront_token, leak: undefined, admin: TOKENS.admin_token });
  });
});

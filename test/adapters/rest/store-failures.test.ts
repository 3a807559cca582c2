/**
 * What the REST adapter makes of a store that fails, answered through the gateway's resilient
 * wrapper and error mapping: throttling backed off (Retry-After), 5xx retried then 503, an HTML
 * error page, cut-off JSON and a mapping that cannot read the answer as 503
 * backend_invalid_response naming tenant, method and expression, a hang as a timeout; never a
 * 500, never the store's credentials in a message. A scripted store on 127.0.0.1 plays the
 * failures (error shapes only).
 */
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BackendError, InvalidAnswerError, type Adapter } from '../../../adapters/contract.js';
import { createRestAdapter } from '../../../adapters/rest/index.js';
import { RestSettings } from '../../../adapters/rest/settings.js';
import { answerProblem, type CheckedMethod } from '../../../src/tenancy/adapter-answers.js';
import { resilientAdapter } from '../../../src/tenancy/resilient-adapter.js';
import { toProtocolError } from '../../../src/transports/error-mapping.js';
import { compile } from '../../../schemas/validator.js';
import { testGateway } from '../../helpers/gateway.js';
import { startScriptedStore, type ScriptedStore } from '../../helpers/scripted-store.js';

let store: ScriptedStore;
const TOKEN = 'store-bearer-token-secret';
const log = pino({ level: 'silent' });

async function bareAdapter(settings: Record<string, unknown> = {}): Promise<Adapter> {
  const checked = compile<RestSettings>(RestSettings)({
    base_url: `${store.url}/api`,
    storefront_url: 'https://shop.example',
    currencies: ['USD'],
    money: 'minor',
    auth: { type: 'bearer', token: 'api_token' },
    ...settings,
  });
  if (!checked.ok) throw new Error(checked.message);
  return createRestAdapter(checked.value, {
    credentials: { api_token: TOKEN },
    where: 'config/tenants/shop.yaml',
    tenantId: 'shop',
    now: Date.now,
    answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
  });
}

/**
 * The adapter as the gateway wraps it (two attempts; a short deadline by default, a long one where
 * the answer itself is the subject, so a loaded machine never turns it into a timeout and retry).
 */
async function restAdapter(settings: Record<string, unknown> = {}, timeoutMs = 300): Promise<Adapter> {
  return resilientAdapter(await bareAdapter(settings), { timeoutMs, attempts: 2, baseDelayMs: 1, maxDelayMs: 20 }, undefined, [TOKEN]);
}

const product = (price: unknown) => ({
  id: 'p1',
  title: 'Roses',
  categories: [],
  media: [],
  options: [],
  tags: [],
  featuredVariantId: 'p1',
  variants: [
    {
      id: 'p1',
      productId: 'p1',
      title: 'Roses',
      price,
      options: [],
      availability: { available: true, status: 'in_stock', quantity: 3 },
      requiresShipping: true,
    },
  ],
});

beforeAll(async () => {
  store = await startScriptedStore();
});
afterEach(() => store.reset());
afterAll(() => store.close());

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  return { error, answer: toProtocolError(error, log) };
}

describe('REST adapter: a store that fails', () => {
  it('backs off a throttled store for its Retry-After, then succeeds', async () => {
    const adapter = await restAdapter();
    store.script(
      'GET',
      '/api/products',
      { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } },
      { status: 200, body: { products: [product({ amount: 3500, currency: 'USD' })] } },
    );
    const page = await adapter.search({ text: 'roses', limit: 10 });
    expect(page.products.map((p) => p.id)).toEqual(['p1']);
    expect(store.done()).toBe(true);
    expect(store.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('keeps the Retry-After of a store that stays throttled in the 503 it answers', async () => {
    const adapter = await restAdapter();
    const throttled = { status: 429, body: {}, headers: { 'retry-after': '7' } };
    store.script('GET', '/api/products', throttled, throttled);
    const { error, answer } = await failure(adapter.search({ limit: 10 }));
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000 });
    expect(answer).toMatchObject({ status: 503, code: 'backend_unavailable', extra: { retryAfterSeconds: 7 } });
  });

  it('retries a 5xx, then answers 503 backend_unavailable', async () => {
    const adapter = await restAdapter();
    store.script('GET', '/api/orders/o1', { status: 502, body: 'Bad Gateway' }, { status: 502, body: 'Bad Gateway' });
    const { error, answer } = await failure(adapter.getOrder('o1'));
    expect(store.done()).toBe(true);
    expect(error).toBeInstanceOf(BackendError);
    expect(answer).toMatchObject({ status: 503, code: 'backend_unavailable' });
  });

  it('answers an HTML error page with backend_invalid_response, without retrying', async () => {
    const adapter = await restAdapter();
    store.script('GET', '/api/orders/o1', {
      status: 200,
      body: '<html><body><h1>Maintenance</h1></body></html>',
      headers: { 'content-type': 'text/html' },
    });
    const { error, answer } = await failure(adapter.getOrder('o1'));
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as Error).message).toBe('tenant shop: getOrder: the store answered 200 with text/html instead of JSON');
    expect(answer).toMatchObject({ status: 503, code: 'backend_invalid_response' });
  });

  it('answers malformed JSON with backend_invalid_response', async () => {
    const adapter = await restAdapter({}, 20_000);
    store.script('GET', '/api/products/lookup', {
      status: 200,
      body: '{"results": [{"product": ',
      headers: { 'content-type': 'application/json' },
    });
    const { error, answer } = await failure(adapter.lookup(['p1']));
    expect((error as Error).message).toBe('tenant shop: lookup: the store answered 200 with malformed JSON');
    expect(answer.code).toBe('backend_invalid_response');
  });

  it('refuses an answer larger than 8 MB with backend_invalid_response', async () => {
    const adapter = await restAdapter({}, 20_000);
    store.script('GET', '/api/orders/o1', {
      status: 200,
      body: `{"id": "${'x'.repeat(9 * 1024 * 1024)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    const { error, answer } = await failure(adapter.getOrder('o1'));
    expect((error as Error).message).toBe("tenant shop: getOrder: the store's answer is larger than 8388608 bytes or was cut off");
    expect(answer.code).toBe('backend_invalid_response');
  });

  it('gives up on a store that never answers, as a retryable timeout', async () => {
    const adapter = await restAdapter();
    store.script('GET', '/api/health', { status: 200, hang: true }, { status: 200, hang: true });
    const { error, answer } = await failure(adapter.ping());
    expect((error as Error).message).toMatch(/did not answer within 300 ms/);
    expect(answer).toMatchObject({ status: 503, code: 'backend_unavailable' });
  });

  it('does not retry refused credentials, and never shows them', async () => {
    const adapter = await restAdapter();
    store.script('GET', '/api/health', { status: 401, body: { error: `bad token ${TOKEN}` } });
    const { error, answer } = await failure(adapter.ping());
    expect(store.done()).toBe(true);
    expect((error as Error).message).toBe("tenant shop: ping: the store refused the gateway's credentials (401)");
    expect(JSON.stringify(answer)).not.toContain(TOKEN);
  });

  it('names tenant, method and expression when a mapping fails on the answer', async () => {
    const adapter = await restAdapter({
      money: 'decimal',
      operations: { search: { response: '{"products": [items.{"id": id, "price": $money(price)}]}' } },
    });
    store.script('GET', '/api/products', { status: 200, body: { items: [{ id: 'p1', price: '12.345' }] } });
    const { error, answer } = await failure(adapter.search({ limit: 5 }));
    expect((error as Error).message).toBe(
      'tenant shop: search: the mapping $.adapter.settings.operations.search.response failed: 12.345 has more decimals than USD allows',
    );
    expect(answer).toMatchObject({ status: 503, code: 'backend_invalid_response' });
  });

  it('names the expression when its answer does not have the contract shape', async () => {
    const adapter = await restAdapter({ operations: { search: { response: '{"products": [items]}' } } });
    store.script('GET', '/api/products', { status: 200, body: { items: [product('35.00')] } });
    const { error, answer } = await failure(adapter.search({ limit: 5 }));
    expect((error as Error).message).toBe(
      'tenant shop: search: the mapping $.adapter.settings.operations.search.response gave an answer that does not fit: ' +
        '$.products[0].variants[0].price must be object',
    );
    expect(answer.code).toBe('backend_invalid_response');
  });

  it('answers a gateway caller 503 backend_invalid_response and logs tenant, method and expression, never the credential', async () => {
    const gw = await testGateway({
      tenant: {
        id: 'shop',
        adapter: { type: 'rest', settings: {}, credentials: { api_token: { env: 'SHOP_TOKEN' } } },
        policies: { allow_loopback_profiles: true, backend: { attempts: 1 } },
      },
      adapter: await bareAdapter({
        money: 'decimal',
        operations: { search: { response: '{"products": [items.{"id": id, "price": $money(price)}]}' } },
      }),
      assembly: {},
    });
    try {
      store.script('GET', '/api/products', { status: 200, body: { items: [{ id: 'p1', price: 'twelve' }] } });
      const res = await gw.app.inject({
        method: 'POST',
        url: '/catalog/search',
        headers: gw.headers(),
        payload: JSON.stringify({ query: 'roses' }),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'backend_invalid_response' });
      const logged = gw.rawLogs.join('\n');
      expect(logged).toContain('tenant shop: search: the mapping $.adapter.settings.operations.search.response failed');
      expect(logged).not.toContain(TOKEN);
    } finally {
      await gw.close();
    }
  });
});

/**
 * What a struggling store answers, and what the gateway makes of it: throttling (the host's 429
 * with Retry-After, the Store API's RateLimit-Retry-After) and 5xx are retried after the time
 * the store asks for; an HTML page, a PHP warning printed before the JSON, a cut-off body or an
 * unexpected shape is backend_invalid_response; a refused API key is a final error naming what to
 * check, without the key; a store that never answers is cut off at the deadline.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BackendError, InvalidAnswerError } from '../../../adapters/contract.js';
import { WooCommerceAdapter } from '../../../adapters/woocommerce/index.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { resilientAdapter } from '../../../src/tenancy/resilient-adapter.js';
import { toProtocolError } from '../../../src/transports/error-mapping.js';
import { startScriptedStore, type ScriptedAnswer, type ScriptedStore } from '../../helpers/scripted-store.js';
import { wooSubject } from './harness.js';

const SECRET = 'cs_secret_that_must_never_be_logged_0123456789';

// Over real HTTP: both the REST API and the Store API go through the kit's undici client.
let store: ScriptedStore;

function adapter() {
  return new WooCommerceAdapter(
    {
      settings: { store_url: store.url, request_timeout_ms: 2_000 },
      consumerKey: 'ck_key_0123456789',
      consumerSecret: SECRET,
      store: new MemoryStore(),
      tenantId: 't',
      now: Date.now,
    },
    { currency: 'USD', decimals: 2 },
  );
}

const products = (answer: ScriptedAnswer) => store.script('GET', '/wp-json/wc/v3/products', answer);
const quoteRequest = { lines: [{ lineId: 'l', variantId: '101', quantity: 1 }], discountCodes: [] };
const silentLog = { error: () => undefined, warn: () => undefined } as never;

beforeAll(async () => {
  store = await startScriptedStore();
});
afterEach(() => store.reset());
afterAll(() => store.close());

describe('throttling and outages', () => {
  it('a host 429 is retryable after its Retry-After', async () => {
    products({
      status: 429,
      body: '<html><body>429 Too Many Requests</body></html>',
      headers: { 'Retry-After': '7', 'Content-Type': 'text/html' },
    });
    const error = await adapter()
      .search({ limit: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000 });
  });

  it("the Store API's rate limiter is retryable after its RateLimit-Retry-After", async () => {
    store.script('GET', '/wp-json/wc/store/v1/cart', {
      status: 429,
      body: {
        code: 'rate_limit_exceeded',
        message: 'Too many requests. Please wait 3 seconds before trying again.',
        data: { status: 429 },
      },
      headers: { 'RateLimit-Retry-After': '3' },
    });
    const subject = adapter();
    const error = await subject.quote({ ...quoteRequest, lines: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 3000 });
    await subject.close();
  });

  it('a 5xx error page is retried by the gateway, then served', async () => {
    products({
      status: 503,
      body: '<!DOCTYPE html><html><body>Service Unavailable</body></html>',
      headers: { 'Content-Type': 'text/html' },
    });
    products({ status: 200, body: [], headers: { 'X-WP-Total': '0', 'X-WP-TotalPages': '0' } });
    const gateway = resilientAdapter(adapter(), { timeoutMs: 1000, attempts: 3, baseDelayMs: 1, maxDelayMs: 5 });
    expect(await gateway.search({ limit: 5 })).toEqual({ products: [], totalCount: 0 });
  });
});

describe("answers that are not the API's", () => {
  it.each([
    [
      'an HTML page with status 200',
      () =>
        products({ status: 200, body: '<!DOCTYPE html><html><body>Maintenance</body></html>', headers: { 'Content-Type': 'text/html' } }),
      /HTML page/,
    ],
    [
      'a PHP warning before the JSON',
      () =>
        products({
          status: 200,
          body: '<br />\n<b>Warning</b>:  Undefined array key "x" in <b>/var/www/x.php</b> on line <b>3</b><br />\n[]',
        }),
      /PHP message/,
    ],
    ['a cut-off body', () => products({ status: 200, body: '[{"id":101,"name":"Bou' }), /cut short/],
    ['another shape', () => products({ status: 200, body: { products: [] } }), /unexpected shape/],
    [
      'a web page where the REST API should be (plain permalinks)',
      () =>
        products({
          status: 404,
          body: '<!DOCTYPE html><html><body>Page not found</body></html>',
          headers: { 'Content-Type': 'text/html' },
        }),
      /permalinks/,
    ],
  ])('%s is backend_invalid_response', async (_name, reply, message) => {
    reply();
    const error = await adapter()
      .search({ limit: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as Error).message).toMatch(message);
    expect(toProtocolError(error, silentLog)).toMatchObject({ status: 503, code: 'backend_invalid_response' });
  });

  it('a refused API key is final and says what to check, without the key', async () => {
    products({
      status: 401,
      body: {
        code: 'woocommerce_rest_authentication_error',
        message: 'Invalid signature - provided signature does not match.',
        data: { status: 401 },
      },
    });
    const error = (await adapter()
      .search({ limit: 5 })
      .catch((e: unknown) => e)) as BackendError;
    expect(error).toBeInstanceOf(BackendError);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/refused the REST API key .*consumer key and secret/);
    expect(error.message).not.toContain(SECRET);
  });
});

describe('deadlines', () => {
  it('a store that never answers is cut off at the attempt deadline', async () => {
    const subject = await wooSubject();
    try {
      subject.sim.controls.fail({ kind: 'hang', times: 5 });
      const gateway = resilientAdapter(subject.adapter, { timeoutMs: 150, attempts: 2, baseDelayMs: 1, maxDelayMs: 5 });
      const error = await gateway.search({ limit: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackendError);
      expect((error as BackendError).message).toMatch(/did not answer within 150 ms/);
    } finally {
      await subject.close();
    }
  });
});

/**
 * The REST adapter's call sequences on the reference store's cart-side API
 * (examples/rest-tenants/tenants/flowers-cart.yaml): a refused line keeps its message while the others
 * are priced; later quotes send only the line changes; placement carries an Idempotency-Key per
 * attempt; a failed call that is not idempotent is not retried; a store without a
 * checkout page gets no checkout-link call; and a broken mapping file is named by file, line,
 * column and function, at start-up and at run time.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendError, type QuoteRequest } from '../../../adapters/contract.js';
import type { RestAdapter } from '../../../adapters/rest/index.js';
import { lineProblemMessages } from '../../../src/capabilities/pricing/line-messages.js';
import { ConfigError } from '../../../adapters/kit/config-error.js';
import { FLOWERS_CART_FILE, flowersAdapter, flowersTenant, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

let store: TestRestStore;
let adapter: RestAdapter;
beforeAll(async () => {
  store = await startRestStore();
  adapter = await flowersAdapter(store, Date.now, {}, FLOWERS_CART_FILE);
});
afterAll(() => store.close());

const request = (lines: QuoteRequest['lines']): QuoteRequest => ({ lines, discountCodes: [] });

describe('REST adapter call sequences (cart-side store)', () => {
  it('prices the other lines when the store refuses one, and keeps the refused line with the store message', async () => {
    const quote = await adapter.quote(
      request([
        { lineId: 'li_1', variantId: 'bouquet_roses', quantity: 2 },
        { lineId: 'li_2', variantId: 'no_such_flower', quantity: 1 },
        { lineId: 'li_3', variantId: 'ebook_flower_care', quantity: 1 },
      ]),
    );
    expect(quote.lines.map((l) => l.lineId)).toEqual(['li_1', 'li_3']);
    expect(quote.lineProblems).toEqual([{ lineId: 'li_2', code: 'not_found', detail: 'this store sells no item "no_such_flower"' }]);
    expect(quote.totals.subtotal).toBe(quote.lines.reduce((sum, l) => sum + l.subtotal, 0));
    const refs = new Map([
      ['li_1', { path: '$.line_items[0]', itemId: 'bouquet_roses' }],
      ['li_2', { path: '$.line_items[1]', itemId: 'no_such_flower' }],
    ]);
    expect(lineProblemMessages(quote, refs)).toEqual([
      expect.objectContaining({
        code: 'not_found',
        path: '$.line_items[1]',
        content: expect.stringContaining('The store says: "this store sells no item \\"no_such_flower\\""'),
      }),
    ]);
  });

  it('sends only the line changes to the store cart of the handle', async () => {
    const first = await adapter.quote(
      request([
        { lineId: 'li_1', variantId: 'bouquet_roses', quantity: 1 },
        { lineId: 'li_2', variantId: 'ebook_flower_care', quantity: 1 },
      ]),
    );
    await store.control('DELETE', '/calls');
    const again = await adapter.quote({ ...request([{ lineId: 'li_1', variantId: 'bouquet_roses', quantity: 3 }]), handle: first.handle! });
    expect(again.handle).toBe(first.handle);
    expect(again.lines).toMatchObject([{ lineId: 'li_1', quantity: 3 }]);
    expect(await store.control('GET', '/calls')).toEqual({
      'GET /api/v2/carts/:id': 2,
      'PATCH /api/v2/carts/:id': 1,
      'PATCH /api/v2/carts/:id/lines/:line': 1,
      'DELETE /api/v2/carts/:id/lines/:line': 1,
    });
  });

  it('places the order with an Idempotency-Key per attempt: the checkout reference and a digest of the payment and total', async () => {
    const lines = [{ lineId: 'li_1', variantId: 'ebook_flower_care', quantity: 1 }];
    const quote = await adapter.quote(request(lines));
    const placed = await adapter.placeOrder({
      reference: 'chk_idem',
      quote: { ...request(lines), handle: quote.handle! },
      expectedTotal: quote.totals.total,
      buyer: { email: 'jane.doe@example.com' },
      payment: { mode: 'store_charged', handlerId: 'store_card', credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' } },
    });
    expect(placed).toMatchObject({ status: 'placed' });
    const keys = [...store.idempotencyKeys].filter(([key]) => key.startsWith('order-chk_idem-'));
    expect(keys).toEqual([[expect.stringMatching(/^order-chk_idem-[\w-]{22}$/), (placed as { orderId: string }).orderId]]);
  });

  it('does not let a failed call that is not idempotent be retried (a retry would make a second cart)', async () => {
    store.faults.inject({ mode: 'error', count: 1 });
    const failure = await adapter.quote(request([{ lineId: 'li_1', variantId: 'bouquet_roses', quantity: 1 }])).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BackendError);
    expect((failure as BackendError).retryable).toBe(false);
    expect((failure as Error).message).toMatch(/step cart; not retried/);
  });

  it('makes no call for a checkout page the tenant does not map, and offers no handoff', async () => {
    const settings = flowersTenant(store, undefined, FLOWERS_CART_FILE).adapter.settings as Record<string, any>;
    const noPage = await flowersAdapter(
      store,
      Date.now,
      {
        operations: { ...settings.operations, checkout_url: false },
        capabilities: { ...settings.capabilities, finishing: ['gateway_charged', 'store_charged'] },
      },
      FLOWERS_CART_FILE,
    );
    await store.control('DELETE', '/calls');
    const page = await noPage.checkoutUrl({ reference: 'chk_nopage', quote: request([]) });
    expect(page).toEqual({ url: store.origin });
    expect(await store.control('GET', '/calls')).toEqual({});
    expect(noPage.capabilities.finishing).not.toContain('handoff');
    await noPage.close();
  });
});

describe('REST adapter mapping files: errors name file, line, column and function', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rest-mappings-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The flowers-cart tenant copied, its functions file edited. */
  function broken(edit: (text: string) => string): string {
    cpSync(join(process.cwd(), 'examples/rest-tenants/tenants'), dir, { recursive: true });
    const file = join(dir, 'mappings/flowers-cart/functions.jsonata');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    return join(dir, 'flowers-cart.yaml');
  }

  const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

  it('stops start-up on an unknown function, naming the file, line, column and the function it is in', async () => {
    const tenant = broken((t) => t.replace('"unitPrice": $amount($l.unit_price)', '"unitPrice": $amont($l.unit_price)'));
    const text = readFileSync(join(dir, 'mappings/flowers-cart/functions.jsonata'), 'utf8');
    const line = lineOf(text, '$amont(');
    const failure = flowersAdapter(store, Date.now, {}, tenant);
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(
      new RegExp(`functions\\.jsonata:${line}:\\d+ \\(in function \\$quote\\): unknown function \\$amont`),
    );
  });

  it('stops start-up on a syntax error in an operation file, naming the file, line and column', async () => {
    broken((t) => t);
    writeFileSync(join(dir, 'mappings/flowers-cart/search.jsonata'), '{\n  "products": [data.$product($)],\n  "more": meta.page <\n}\n');
    await expect(flowersAdapter(store, Date.now, {}, join(dir, 'flowers-cart.yaml'))).rejects.toThrow(
      /search\.jsonata:4:\d+: \$\.adapter\.settings\.operations\.search\.response is not a valid JSONata expression/,
    );
  });

  it('names the tenant file, line and column of an inline function that fails at run time', async () => {
    cpSync(join(process.cwd(), 'config/rest-demo/tenants'), dir, { recursive: true });
    const file = join(dir, 'flowers.yaml');
    const text = readFileSync(file, 'utf8').replace('"title": name,', '"title": $substring(name, "one"),');
    writeFileSync(file, text);
    const failing = await flowersAdapter(store, Date.now, {}, file);
    const failure = await failing.quote(request([{ lineId: 'li_1', variantId: 'bouquet_roses', quantity: 1 }])).catch((e: unknown) => e);
    const line = lineOf(text, '$substring(');
    expect((failure as Error).message).toMatch(new RegExp(`flowers\\.yaml:${line}:\\d+ \\(in function \\$quote\\) failed`));
    await failing.close();
  });

  it("names the function's file and line and an excerpt of the store's answer when a mapping fails at run time", async () => {
    const tenant = broken((t) => t.replace('"title": $l.name,', '"title": $substring($l.name, "one"),'));
    const text = readFileSync(join(dir, 'mappings/flowers-cart/functions.jsonata'), 'utf8');
    const failing = await flowersAdapter(store, Date.now, {}, tenant);
    const failure = await failing.quote(request([{ lineId: 'li_1', variantId: 'bouquet_roses', quantity: 1 }])).catch((e: unknown) => e);
    const message = (failure as Error).message;
    expect(message).toContain('tenant flowers-cart: quote: the mapping');
    expect(message).toMatch(new RegExp(`functions\\.jsonata:${lineOf(text, '$substring(')}:\\d+ \\(in function \\$quote\\) failed`));
    expect(message).toMatch(/the store answered \{"cart":\{"cart_id":"cart_/);
    expect(message).not.toContain('store-api-secret-for-tests');
    await failing.close();
  });
});

/**
 * The demo tenant as `npm start` loads it (config/): every link its answers carry (product pages,
 * images, sellers, policies, the order page, tracking) opens something the gateway serves.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTenants } from '../../src/tenancy/load.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';

const ORIGIN = 'http://127.0.0.1:18080';
let app: FastifyInstance;
let platform: PlatformServer;
beforeAll(async () => {
  platform = await startPlatform();
  const store = new MemoryStore();
  const tenants = await loadTenants('config', { env: {}, now: Date.now, store, baseUrl: ORIGIN });
  app = await buildServer({ settings: { bodyLimitBytes: 65_536, logLevel: 'silent' }, tenants, store, jobPollMs: 3_600_000 });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await platform?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) {
  const answer = await app.inject({
    method,
    url,
    headers: {
      host: '127.0.0.1:18080',
      'content-type': 'application/json',
      'proto-agent': platform.agent(),
      'request-id': randomUUID(),
      'idempotency-key': randomUUID(),
      ...headers,
    },
    ...(payload && { payload }),
  });
  return answer.json<Record<string, unknown> & { id: string }>();
}

/** Every http(s) URL in an answer. */
const urls = (value: unknown): string[] =>
  typeof value === 'string'
    ? /^https?:\/\//.test(value)
      ? [value]
      : []
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(urls)
      : [];

describe("the demo store's links", () => {
  it('all open on the gateway (200), images as SVG, pages as HTML', async () => {
    const answers: unknown[] = [];
    for (const query of ['roses', 'tee', 'vase', 'wreath', 'handbook', 'peonies', 'pot', 'orchid', 'tulips', 'sunflowers', 'gardenias']) {
      answers.push(await call('POST', '/catalog/search', { query }));
    }
    const address = {
      street_address: '123 Main St',
      address_locality: 'Chicago',
      address_region: 'IL',
      address_country: 'US',
      postal_code: '60601',
    };
    const created = await call('POST', '/checkout-sessions', { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }] });
    const lines = (created.line_items as Array<{ id: string; item: { id: string }; quantity: number }>).map(({ id, item, quantity }) => ({
      id,
      item: { id: item.id },
      quantity,
    }));
    const buyer = { email: 'ann@example.com' };
    const shipping = { methods: [{ type: 'shipping', destinations: [address] }] };
    const priced = await call('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer, fulfillment: shipping });
    type Method = {
      id: string;
      type: string;
      destinations: unknown;
      selected_destination_id: string;
      groups: Array<{ id: string; options: Array<{ id: string }> }>;
    };
    const method = (priced.fulfillment as { methods: Method[] }).methods[0]!;
    const chosen = { ...method, groups: method.groups.map((g) => ({ id: g.id, selected_option_id: g.options[0]!.id })) };
    await call('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer, fulfillment: { methods: [chosen] } });
    const instrument = { handler_id: 'sandbox', type: 'card', credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' } };
    const completed = await call('POST', `/checkout-sessions/${created.id}/complete`, { payment: { instruments: [instrument] } });
    const orderId = (completed.order as { id: string }).id;
    const secret = (await readFile('config/demo-simulation-secret', 'utf8')).trim();
    const shipped = await call('POST', `/simulate/orders/${orderId}/ship`, {}, { authorization: `Bearer ${secret}` });
    answers.push(created, completed, shipped); // the order as the simulation's webhook tells it

    const links = [...new Set(answers.flatMap(urls))].filter((url) => !url.includes('/.well-known/'));
    expect(links.filter((url) => !url.startsWith(`${ORIGIN}/`))).toEqual([]); // nothing points off the gateway (example.com)
    for (const kind of [
      '/demo-store/images/',
      '/demo-store/products/',
      '/demo-store/policies/',
      '/demo-store/tracking/',
      '/demo-store/sellers/',
      '/order-status/',
    ]) {
      expect(
        links.some((url) => url.includes(kind)),
        kind,
      ).toBe(true);
    }
    for (const url of links) {
      const page = await app.inject({ method: 'GET', url: url.slice(ORIGIN.length), headers: { host: '127.0.0.1:18080' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(url.endsWith('.svg') ? /^image\/svg\+xml/ : /^text\/html/);
    }
  });

  it('serves nothing else under /demo-store (404)', async () => {
    for (const path of [
      '/demo-store/images/../policies/terms.html',
      '/demo-store/images/roses.jpg',
      '/demo-store/policies/other',
      '/demo-store/product.html',
    ]) {
      const page = await app.inject({ method: 'GET', url: path, headers: { host: '127.0.0.1:18080' } });
      expect(page.statusCode, path).toBe(404);
    }
  });
});

/**
 * Discovery and per-session negotiation of the embedded transport (spec part 2 §9): the profile's
 * service entry, and on every live cart and checkout answer (REST and MCP) the embedded binding
 * with the delegations allowed and the page as continue_url. Without the setting, nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGateway } from '../helpers/demo-gateway.js';
import { line, pay, STOREFRONT, walkToReady, type CheckoutGateway, type Transport } from '../capabilities/checkout/checkout-gateway.js';
import { checkoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { embeddedGateway, pathOf } from './embedded-gateway.js';

const PAGE = /^https:\/\/shop\.example\/embedded\/(cart|checkout)\/[A-Za-z0-9_-]{44,}$/;
const binding = (delegate: string[]) => ({
  'dev.proto.shopping': [{ version: '2026-04-08', transport: 'embedded', config: { delegate } }],
});
const CHECKOUT_DELEGATE = ['payment.credential', 'fulfillment.address_change'];

// One gateway with the setting on and one without, shared: every test makes its own sessions.
let on: CheckoutGateway;
let off: CheckoutGateway;
beforeAll(async () => {
  [on, off] = await Promise.all([embeddedGateway(), checkoutGateway()]);
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

describe('the profile', () => {
  it('lists the embedded service entry with its schema and the delegations on offer', async () => {
    const profile = (await on.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
    const entries = profile.proto.services['dev.proto.shopping'];
    expect(entries.map((e: any) => e.transport)).toEqual(['rest', 'mcp', 'embedded']);
    const embedded = entries.find((e: any) => e.transport === 'embedded');
    expect(embedded).toEqual({
      version: '2026-04-08',
      spec: expect.stringMatching(/^https:\/\//),
      transport: 'embedded',
      schema: 'https://proto.dev/services/shopping/embedded.openrpc.json',
      config: { delegate: CHECKOUT_DELEGATE },
    });
  });

  it('has no embedded entry when the tenant leaves the transport off', async () => {
    const profile = (await off.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
    expect(profile.proto.services['dev.proto.shopping'].map((e: any) => e.transport)).toEqual(['rest', 'mcp']);
  });
});

describe.each<Transport>(['rest', 'mcp'])('answers over %s', (transport) => {
  it('a live cart carries the binding (no cart delegations) and its page as continue_url', async () => {
    const carts = on.carts(transport);
    const created = await carts.create({ line_items: [line('bouquet_roses', 2)] });
    expect(created.body.proto.services).toEqual(binding([]));
    expect(created.body.continue_url).toMatch(PAGE);
    expect(pathOf(created.body.continue_url)).toMatch(/^\/embedded\/cart\//);
    const read = await carts.get(created.body.id);
    expect(read.body.proto.services).toEqual(binding([]));
    expect(read.body.continue_url).toMatch(PAGE);
    const updated = await carts.update(created.body.id, { line_items: [line('bouquet_roses', 3)] });
    expect(updated.body.continue_url).toMatch(PAGE);
    // A canceled cart is over: no page to continue on.
    const canceled = await carts.cancel(created.body.id);
    expect(canceled.body.proto.services).toBeUndefined();
    expect(canceled.body.continue_url).not.toMatch(PAGE);
  });

  it('a live checkout carries the checkout delegations and its page; a completed one neither', async () => {
    const client = on.client(transport);
    const { created, ready } = await walkToReady(client, [line('pot_ceramic')]);
    for (const body of [created, ready]) {
      expect(body.proto.services).toEqual(binding(CHECKOUT_DELEGATE));
      expect(body.continue_url).toMatch(PAGE);
      expect(pathOf(body.continue_url)).toMatch(/^\/embedded\/checkout\//);
    }
    const done = await client.complete(ready.id, pay('success_token'));
    expect(done.body.status).toBe('completed');
    expect(done.body.proto.services).toBeUndefined();
    expect(done.body.continue_url).toBeUndefined();
  });

  it('a canceled checkout has no binding', async () => {
    const client = on.client(transport);
    const created = (await client.create({ line_items: [line('pot_ceramic')] })).body;
    const canceled = (await client.cancel(created.id)).body;
    expect(canceled.status).toBe('canceled');
    expect(canceled.proto.services).toBeUndefined();
    expect(canceled.continue_url).toBeUndefined();
  });

  it('without the setting, answers are as before: the store page, no services', async () => {
    const cart = (await off.carts(transport).create({ line_items: [line('bouquet_roses', 2)] })).body;
    expect(cart.proto.services).toBeUndefined();
    expect(cart.continue_url.startsWith(STOREFRONT)).toBe(true);
    const checkout = (await off.client(transport).create({ line_items: [line('pot_ceramic')] })).body;
    expect(checkout.proto.services).toBeUndefined();
    expect(checkout.continue_url).toBeUndefined();
  });
});

describe('with the setting off', () => {
  it('serves no page, no page RPC and no assets', async () => {
    const cart = (await on.carts('rest').create({ line_items: [line('bouquet_roses', 1)] })).body;
    const path = pathOf(cart.continue_url);
    expect((await off.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const rpc = await off.app.inject({
      method: 'POST',
      url: `${path}/rpc`,
      headers: { 'content-type': 'application/json' },
      payload: { operation: 'get_cart' },
    });
    expect(rpc.statusCode).toBe(404);
    expect((await off.app.inject({ method: 'GET', url: '/embedded/assets/page.js' })).statusCode).toBe(404);
  });

  it('a demo gateway built the usual way still answers carts with the store page', async () => {
    const plain = await demoGateway();
    try {
      const res = await plain.app.inject({
        method: 'POST',
        url: '/carts',
        headers: plain.headers(),
        payload: { line_items: [line('bouquet_roses', 1)] },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().continue_url.startsWith(STOREFRONT)).toBe(true);
    } finally {
      await plain.close();
    }
  });
});

/**
 * The page RPC: the page reads and changes its own session through the same operations and
 * pipeline as REST (same answers, status codes included), only the operations its kind allows,
 * only the session its token names; bad input and bad tokens get clear errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { BUYER, line, pay, STOREFRONT, walkToReady, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { embeddedGateway, pageCall, pageClient, pathOf } from './embedded-gateway.js';
import { CONFIRMATION_MS } from '../../src/embedded/transport/page-rpc.js';

let gw: CheckoutGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

/** A checkout an agent created over REST, and its page URL. */
async function checkoutPage(options: Parameters<typeof embeddedGateway>[0] = {}) {
  gw = await embeddedGateway(options);
  const created = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
  return { gw, created, url: created.continue_url as string };
}

const linesOf = (body: any) => body.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));

describe('a checkout page', () => {
  it('reads its session exactly as the agent reads it over REST, with the store as continue_url', async () => {
    const { gw, created, url } = await checkoutPage();
    const page = await pageCall(gw, url, 'get_checkout', undefined, { key: null });
    const rest = await gw.client('rest').get(created.id);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    // The same answer but for continue_url: the page is where the agent sends the buyer, not where the page sends them.
    expect(page.body).toEqual({ ...rest.body, continue_url: undefined });
    expect(page.body.proto.services).toEqual(rest.body.proto.services);
  });

  it('fills in the buyer and the delivery, completes, and the order exists for the agent too', async () => {
    gw = await embeddedGateway();
    const client = pageClient(gw);
    const { created, ready } = await walkToReady(client, [line('pot_ceramic')]);
    expect(ready.status).toBe('ready_for_complete');
    expect(ready.continue_url).toBeUndefined();
    const done = await client.complete(created.id, pay('success_token'));
    expect(done.status).toBe(200);
    expect(done.body.proto.status).toBe('success');
    expect(done.body.status).toBe('completed');
    expect(done.body.order.id).toEqual(expect.any(String));
    expect(done.body.proto.services).toBeUndefined();
    const seen = (await gw.client('rest').get(created.id)).body;
    expect(seen.status).toBe('completed');
    expect(seen.order.id).toBe(done.body.order.id);
    expect(await gw.demo.getOrder(done.body.order.id)).not.toBeNull();
  });

  it('answers a store that takes payment on its own page with that page, so the page can hand off', async () => {
    const handler = { id: 'store-checkout', name: 'dev.proto.payments.handoff', type: 'handoff' as const, instruments: ['redirect'] };
    gw = await embeddedGateway({ tenant: { payment_handlers: [handler] } });
    const client = pageClient(gw);
    const { created } = await walkToReady(client, [line('pot_ceramic')]);
    const escalated = await client.complete(created.id, {});
    expect(escalated.body.status).toBe('requires_escalation');
    expect(escalated.body.continue_url).toBe(`${STOREFRONT}/cart/pot_ceramic:1?ref=${created.id}`);
    // The agent, meanwhile, is sent to the page, which hands off.
    const agent = (await gw.client('rest').get(created.id)).body;
    expect(agent.status).toBe('requires_escalation');
    expect(pathOf(agent.continue_url)).toMatch(/^\/embedded\/checkout\//);
  });

  it('may call only the operations of its kind, on its own session', async () => {
    const { gw, url } = await checkoutPage();
    for (const operation of ['create_checkout', 'get_cart', 'search_catalog', 'get_order', 'nothing']) {
      const res = await pageCall(gw, url, operation, {});
      expect(res.status, operation).toBe(400);
      expect(res.body.code).toBe('not_supported');
      expect(res.body.content).toContain('get_checkout, update_checkout, complete_checkout, cancel_checkout');
    }
    const other = (await gw.client('rest').create({ line_items: [line('bouquet_roses', 1)] })).body;
    const elsewhere = await pageCall(gw, url, 'update_checkout', { id: other.id, line_items: [line('pot_ceramic', 2)] });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ code: 'invalid_request', content: '$.id does not match the session of this page' });
    expect((await gw.client('rest').get(other.id)).body.line_items[0].item.id).toBe('bouquet_roses');
  });

  it('cancels its session, which the agent then reads canceled', async () => {
    const { gw, created, url } = await checkoutPage();
    const canceled = await pageCall(gw, url, 'cancel_checkout');
    expect(canceled.body.status).toBe('canceled');
    expect((await gw.client('rest').get(created.id)).body.status).toBe('canceled');
  });
});

describe('a cart page', () => {
  it('reads, changes and cancels its cart', async () => {
    gw = await embeddedGateway();
    const cart = (await gw.carts('mcp').create({ line_items: [line('bouquet_roses', 2)] })).body;
    const url = cart.continue_url as string;
    expect((await pageCall(gw, url, 'get_cart', undefined, { key: null })).body.line_items[0].quantity).toBe(2);
    const updated = await pageCall(gw, url, 'update_cart', {
      line_items: [{ id: cart.line_items[0].id, item: { id: 'bouquet_roses' }, quantity: 5 }],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.line_items[0].quantity).toBe(5);
    expect((await gw.carts('rest').get(cart.id)).body.line_items[0].quantity).toBe(5);
    expect((await pageCall(gw, url, 'get_checkout')).body.code).toBe('not_supported');
    expect((await pageCall(gw, url, 'cancel_cart')).status).toBe(200);
    const gone = await pageCall(gw, url, 'get_cart');
    expect(gone.status).toBe(200);
    expect(gone.body.proto.status).toBe('error');
    expect(gone.body.messages[0].code).toBe('not_found');
  });
});

describe('bad requests', () => {
  it('malformed JSON, wrong types, unknown members and no body each get a 400 naming the problem', async () => {
    const { gw, url } = await checkoutPage();
    const cases: Array<[string, string]> = [
      ['{"operation":', 'invalid_json'],
      ['{"operation": 42}', 'invalid_request'],
      ['{"operation": "update_checkout", "payload": "buyer"}', 'invalid_request'],
      ['{"operation": "update_checkout", "payload": {"line_items": "none"}}', 'invalid_request'],
      ['{"operation": "get_checkout", "session": "chk_1"}', 'invalid_request'],
      ['["get_checkout"]', 'invalid_request'],
      ['', 'invalid_request'],
    ];
    for (const [raw, code] of cases) {
      const res = await pageCall(gw, url, '', undefined, { raw });
      expect(res.status, raw).toBe(400);
      expect(res.body.code, raw).toBe(code);
      expect(res.body.content.length, raw).toBeGreaterThan(10);
    }
  });

  it('an oversized body gets a 413', async () => {
    const { gw, url } = await checkoutPage();
    const res = await pageCall(gw, url, 'update_checkout', {
      line_items: [line('pot_ceramic')],
      buyer: { ...BUYER, first_name: 'x'.repeat(70_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toEqual(expect.any(String));
  });

  it('a change without an Idempotency-Key is refused; a retry with one is answered once', async () => {
    const { gw, created, url } = await checkoutPage();
    const payload = { line_items: linesOf(created), buyer: BUYER };
    const missing = await pageCall(gw, url, 'update_checkout', payload, { key: null });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'missing_idempotency_key', content: 'update_checkout requires the Idempotency-Key header' });
    const first = await pageCall(gw, url, 'update_checkout', payload, { key: 'a2b6a9d2-6f7c-4c55-9f44-0b1c9c6b7a10' });
    const again = await pageCall(gw, url, 'update_checkout', payload, { key: 'a2b6a9d2-6f7c-4c55-9f44-0b1c9c6b7a10' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('a bad, expired or foreign token gets a 401 and touches nothing', async () => {
    const secret = GatewaySecret.from('shared by both gateways');
    const { gw, created, url } = await checkoutPage({ gateway: { secret } });
    const payload = { line_items: [{ ...linesOf(created)[0], quantity: 3 }] };
    const at = url.length - 5;
    const tampered = `${url.slice(0, at)}${url[at] === 'A' ? 'B' : 'A'}${url.slice(at + 1)}`;
    for (const bad of [
      tampered,
      url.replace('/checkout/', '/cart/'),
      'https://shop.example/embedded/checkout/e30.AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const res = await pageCall(gw, bad, 'update_checkout', payload);
      expect(res.status, bad).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', content: 'the page token is not valid for this page' });
    }
    const other = await embeddedGateway({ tenant: { id: 'other-shop' }, gateway: { secret } });
    try {
      expect((await pageCall(other, url, 'get_checkout')).status).toBe(401);
    } finally {
      await other.close();
    }
    gw.clock.now += 600_000;
    const expired = await pageCall(gw, url, 'update_checkout', payload);
    expect(expired.status).toBe(401);
    expect(expired.body.content).toMatch(/has expired/);
    expect((await gw.client('rest').get(created.id)).body.line_items[0].quantity).toBe(1);
  });
});

describe('a checkout page after completion', () => {
  it('reads the confirmation only (order id, status), no buyer email or address; its token ends a few minutes later', async () => {
    gw = await embeddedGateway();
    const client = pageClient(gw);
    const { created } = await walkToReady(client, [line('pot_ceramic')]);
    const url = client.pageUrl();
    const done = await client.complete(created.id, pay('success_token'));
    expect(done.body.status).toBe('completed');
    const again = await pageCall(gw, url, 'get_checkout', undefined, { key: null });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      proto: expect.objectContaining({ status: 'success' }),
      id: created.id,
      status: 'completed',
      order: { id: done.body.order.id, permalink_url: expect.any(String) },
    });
    expect(JSON.stringify(again.body)).not.toContain(BUYER.email);
    expect(JSON.stringify(again.body)).not.toMatch(/street_address|postal_code/);
    // The agent still reads the whole checkout over REST.
    expect((await gw.client('rest').get(created.id)).body.buyer).toMatchObject({ email: BUYER.email });
    gw.clock.now += CONFIRMATION_MS - 1000;
    expect((await pageCall(gw, url, 'get_checkout', undefined, { key: null })).status).toBe(200);
    gw.clock.now += 2000;
    const late = await pageCall(gw, url, 'get_checkout', undefined, { key: null });
    expect(late.status).toBe(401);
    expect(late.body.content).toContain('completed');
  });
});

describe('a checkout page after the checkout is canceled', () => {
  it('reads the status only, no buyer email or address; its token ends a few minutes later', async () => {
    gw = await embeddedGateway();
    const client = pageClient(gw);
    const { created } = await walkToReady(client, [line('pot_ceramic')]);
    const url = client.pageUrl();
    expect(JSON.stringify((await pageCall(gw, url, 'get_checkout', undefined, { key: null })).body)).toContain(BUYER.email);
    // The agent cancels; the page is still open in the buyer's window.
    expect((await gw.client('rest').cancel(created.id)).body.status).toBe('canceled');
    const seen = await pageCall(gw, url, 'get_checkout', undefined, { key: null });
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({ proto: expect.objectContaining({ status: 'success' }), id: created.id, status: 'canceled' });
    const change = await pageCall(gw, url, 'update_checkout', { buyer: BUYER });
    expect(JSON.stringify(change.body)).not.toContain(BUYER.email);
    expect(JSON.stringify(change.body)).not.toMatch(/street_address|postal_code/);
    gw.clock.now += CONFIRMATION_MS + 1000;
    const late = await pageCall(gw, url, 'get_checkout', undefined, { key: null });
    expect(late.status).toBe(401);
    expect(late.body.content).toContain('canceled');
    // The agent still reads the whole checkout over REST.
    expect((await gw.client('rest').get(created.id)).body.buyer).toMatchObject({ email: BUYER.email });
  });

  it('the page that cancels gets the status only', async () => {
    gw = await embeddedGateway();
    const client = pageClient(gw);
    const { created } = await walkToReady(client, [line('pot_ceramic')]);
    const canceled = await pageCall(gw, client.pageUrl(), 'cancel_checkout');
    expect(canceled.body).toEqual({ proto: expect.objectContaining({ status: 'success' }), id: created.id, status: 'canceled' });
  });
});

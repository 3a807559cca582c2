/**
 * A WooCommerce store behind the gateway, end to end, once per finishing mode: an agent searches,
 * reads a variable product, fills a cart with a code, checks out with a shipping rate and
 * completes; the store's own webhooks (created for the tenant by the registration command's code,
 * delivered over HTTP to the gateway) bring the order, its tracking and a refund to the
 * platform's order webhook.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebhooks } from '../../adapters/woocommerce/webhook-setup.js';
import { choosingFirstOptions } from '../../bench/checkout-bodies.js';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { platformProfile } from '../helpers/platform.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { WEBHOOK_SECRET, wooSubject, type WooSubject } from '../adapters/woocommerce/harness.js';
import { bodyOf } from '../webhooks/platform-side.js';

type Mode = 'gateway_charged' | 'store_charged' | 'handoff';

const HANDLERS: Record<Mode, TenantConfig['payment_handlers']> = {
  gateway_charged: [{ id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox', instruments: ['card'] }],
  store_charged: [{ id: 'woo-card', name: 'dev.proto.payments.store', type: 'store', instruments: ['card'] }],
  handoff: [{ id: 'store-checkout', name: 'dev.proto.payments.handoff', type: 'handoff', instruments: ['redirect'] }],
};

const PAYMENT: Record<Mode, unknown> = {
  gateway_charged: {
    instruments: [
      { id: 'i1', handler_id: 'sandbox', type: 'card', selected: true, credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' } },
    ],
  },
  store_charged: {
    instruments: [{ id: 'i1', handler_id: 'woo-card', type: 'card', selected: true, credential: { type: 'card', token: 'success_token' } }],
  },
  handoff: undefined,
};

const CHICAGO = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};
const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
const PROFILE = '/profiles/woo-walk';

/**
 * How the store enters and shows prices: without tax (taxed on top), or including it (gross
 * prices, `woocommerce_prices_include_tax` and `woocommerce_tax_display_cart` = incl).
 * 650 + 7000 = 7650, 10% off 765, standard shipping 500 (untaxed), Illinois 6.25% per line:
 * on top 6300 -> 394, 585 -> 37; included 6300 -> 371, 585 -> 34 (already in the prices, shown
 * under the total, never added).
 */
const TAX = {
  exclusive: { simulator: {}, total: 7650 - 765 + 500 + 431, tax: 431, included: undefined },
  inclusive: {
    simulator: { pricesIncludeTax: true, taxDisplayCart: 'incl' as const },
    total: 7650 - 765 + 500,
    tax: undefined,
    included: [
      { display_text: 'Before tax', amount: 7650 - 765 + 500 - 405 },
      { display_text: 'Illinois sales tax (included)', amount: 405 },
    ],
  },
};

type Totals = Array<{ type: string; amount: number; lines?: unknown }>;
/** The tax the buyer is shown: an added `tax` entry, or the included tax under the `total`. */
const taxShown = (totals: Totals) => ({
  tax: totals.find((t) => t.type === 'tax')?.amount,
  included: totals.find((t) => t.type === 'total')?.lines,
});
const WALKS = (['gateway_charged', 'store_charged', 'handoff'] as const).flatMap((mode) =>
  (['exclusive', 'inclusive'] as const).map((tax) => [mode, tax] as const),
);

describe.each(WALKS)('a WooCommerce store through the gateway, finishing %s, prices %s of tax', (mode, tax) => {
  let woo: WooSubject;
  let gw: TestGateway;
  let receiver: WebhookReceiver;
  /** How far the gateway's clock is ahead of the store's, to bring the next order poll due. */
  let skew = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    woo = await wooSubject({ simulator: TAX[tax].simulator });
    gw = await testGateway({
      adapter: woo.adapter,
      keyring: await tenantKeyring(),
      secret: GatewaySecret.from('woo-walk-gateway-secret-0123456789abcdef'),
      webhooks: { pollMs: 5 },
      now: () => Date.now() + skew,
      tenant: {
        adapter: { type: 'woocommerce', settings: { store_url: woo.sim.url }, finishing: mode },
        payment_handlers: HANDLERS[mode],
      },
    });
    const profile = platformProfile();
    profile.proto.capabilities['dev.proto.shopping.order'] = [
      { version: '2026-04-08', config: { webhook_url: receiver.url() } } as { version: string },
    ];
    gw.platform.serve(PROFILE, profile);
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    const address = gw.app.server.address() as { port: number };
    const outcomes = await registerWebhooks(woo.adapter.http, {
      deliveryUrl: `http://127.0.0.1:${address.port}/webhooks/backend`,
      secret: WEBHOOK_SECRET,
      name: 'Proto gateway',
    });
    expect(outcomes.map((o) => o.action)).toEqual(['created', 'created', 'created', 'created', 'created']);
  });

  afterAll(async () => {
    await gw?.close();
    await woo?.close();
    await receiver?.close();
  });

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
    const res = await gw.app.inject({
      method,
      url,
      headers: gw.headers({ 'proto-agent': gw.platform.agent(PROFILE), 'idempotency-key': randomUUID() }),
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('walks search, product, cart with a code, checkout with a rate, completion, order webhook, tracking, refund', async () => {
    // The store pinged each webhook on creation; the gateway answered 200.
    expect(
      woo.sim.controls
        .deliveries()
        .filter((d) => d.body.startsWith('webhook_id='))
        .map((d) => d.status),
    ).toEqual([200, 200, 200, 200, 200]);

    const search = await call('POST', '/catalog/search', { query: 'greeting card' });
    expect(search.status).toBe(200);
    const card = search.body.products.find((p: { title: string }) => p.title === 'Greeting Card');
    expect(card).toBeDefined();
    const product = await call('POST', '/catalog/product', {
      id: card.id,
      selected: [
        { name: 'Size', label: 'Large' },
        { name: 'Message', label: 'Thank You' },
      ],
    });
    expect(product.status).toBe(200);
    const variant = product.body.product.selected_variant ?? product.body.product.variants[0];
    expect(variant.title).toBe('Large / Thank You');
    expect(variant.price.amount).toBe(650);

    const roses = String(woo.sim.controls.idOf('bouquet_roses'));
    const cart = await call('POST', '/carts', {
      line_items: [
        { item: { id: variant.id }, quantity: 1 },
        { item: { id: roses }, quantity: 2 },
      ],
      discounts: { codes: ['10OFF', 'SPRING2025'] },
    });
    expect(cart.status).toBe(201);
    expect(cart.body.discounts.applied.map((d: { code: string }) => d.code)).toEqual(['10OFF']);
    expect(cart.body.messages.map((m: { code: string }) => m.code)).toContain('discount_code_expired');

    const created = await call('POST', '/checkout-sessions', {
      cart_id: cart.body.id,
      buyer: BUYER,
      fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
    });
    expect(created.status).toBe(201);
    const method = created.body.fulfillment.methods[0];
    expect(method.groups[0].options.map((o: { title: string }) => o.title)).toEqual(['Standard Shipping', 'Express Shipping (US)']);
    const ready = await call('PUT', `/checkout-sessions/${created.body.id}`, {
      ...choosingFirstOptions(created.body),
      buyer: BUYER,
      discounts: { codes: ['10OFF'] },
    });
    expect(ready.body.status).toBe('ready_for_complete');
    const total = ready.body.totals.find((t: { type: string }) => t.type === 'total').amount;
    expect(total).toBe(TAX[tax].total);
    expect(taxShown(ready.body.totals)).toEqual({ tax: TAX[tax].tax, included: TAX[tax].included });
    // The prices the buyer sees are the store's own: gross on a store whose prices include tax.
    expect(ready.body.line_items.map((l: { item: { price: number } }) => l.item.price)).toEqual([650, 3500]);

    const completed = await call('POST', `/checkout-sessions/${created.body.id}/complete`, {
      ...(PAYMENT[mode] !== undefined && { payment: PAYMENT[mode] }),
      signals: { 'dev.proto.buyer_ip': '203.0.113.7', 'dev.proto.user_agent': 'walk/1.0' },
    });
    let orderId: string;
    if (mode === 'handoff') {
      expect(completed.body.status).toBe('requires_escalation');
      const page = completed.body.continue_url as string;
      expect(page).toMatch(new RegExp(`^${woo.sim.url}/checkout/order-pay/\\d+/`));
      // The store announced the pending order it created for the page (order.created fires for
      // every non-draft order): unpaid, it completes nothing and the platform hears nothing yet.
      await woo.sim.controls.flushWebhooks();
      expect(woo.sim.controls.deliveries().filter((d) => d.headers['x-wc-webhook-topic'] === 'order.created')).toHaveLength(1);
      expect((await call('GET', `/checkout-sessions/${created.body.id}`)).body.status).toBe('requires_escalation');
      expect(receiver.received).toEqual([]);
      const paid = await fetch(page, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payment_method=simulated_card&token=success_token',
        redirect: 'manual',
      });
      expect(paid.status).toBe(302);
      orderId = /order-pay\/(\d+)\//.exec(page)![1]!;
    } else {
      expect(completed.body.status).toBe('completed');
      orderId = completed.body.order.id;
    }
    const storeOrder = woo.sim.store.orders.get(Number(orderId))!;
    expect(storeOrder).toMatchObject({ status: 'processing', total });
    expect(storeOrder.meta.find((m) => m.key === '_proto_reference')?.value).toBe(created.body.id);
    expect(storeOrder.refunds).toEqual([]);

    await woo.sim.controls.flushWebhooks();
    const [createdHook] = await receiver.waitFor(1);
    expect(bodyOf(createdHook!).id).toBe(orderId);
    // The platform hears of the order at the total it was quoted, its tax shown the same way and
    // its lines under the checkout's line ids (the store keeps them as line meta, or the gateway maps them).
    const announced = bodyOf(createdHook!);
    const totalEntry = (totals: Totals) => totals.find((t) => t.type === 'total');
    expect(totalEntry(announced.totals)).toEqual(totalEntry(ready.body.totals));
    expect(taxShown(announced.totals)).toEqual({ tax: TAX[tax].tax, included: TAX[tax].included });
    expect(announced.line_items.map((l: { id: string }) => l.id)).toEqual(ready.body.line_items.map((l: { id: string }) => l.id));

    // WooCommerce loses the shipment's delivery and never retries it: the reconciliation poll
    // (every 5 minutes by default) finds the changed order and the platform still hears of it.
    woo.sim.controls.dropWebhooks('order.updated');
    woo.sim.controls.ship(orderId, {
      trackingNumber: '1Z999AA10123456784',
      provider: 'UPS',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    });
    await woo.sim.controls.flushWebhooks();
    expect(woo.sim.controls.deliveries().at(-1)).toMatchObject({ status: 'error' });
    expect(receiver.received.some((w) => (bodyOf(w).fulfillment?.events ?? []).length > 0)).toBe(false);
    skew += 5 * 60_000;
    await gw.app.orderPolls.drain();
    await expect
      .poll(() => receiver.received.some((w) => (bodyOf(w).fulfillment?.events ?? []).length > 0), { timeout: 10_000 })
      .toBe(true);
    const shipped = bodyOf(receiver.received.find((w) => (bodyOf(w).fulfillment?.events ?? []).length > 0)!);
    expect(shipped.fulfillment.events[0]).toMatchObject({
      type: 'shipped',
      tracking_number: '1Z999AA10123456784',
      tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    });

    woo.sim.controls.refund(orderId, { amount: 500, reason: 'Late delivery' });
    await woo.sim.controls.flushWebhooks();
    await expect.poll(() => receiver.received.some((w) => (bodyOf(w).adjustments ?? []).length > 0), { timeout: 10_000 }).toBe(true);
    const refunded = bodyOf(receiver.received.find((w) => (bodyOf(w).adjustments ?? []).length > 0)!);
    expect(refunded.adjustments![0]).toMatchObject({
      type: 'refund',
      status: 'completed',
      totals: [expect.objectContaining({ amount: -500 })],
      description: 'Late delivery',
    });
  });
});

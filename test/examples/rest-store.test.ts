/** The reference store on its own: its API, auth, carts, orders, webhooks and controls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../examples/rest-store/webhooks.js';
import { NOW } from '../helpers/demo-gateway.js';
import { startRestStore, STORE_KEY, STORE_WEBHOOK_SECRET, type TestRestStore } from '../helpers/rest-store.js';

let store: TestRestStore;
beforeAll(async () => {
  store = await startRestStore({ now: () => NOW });
});
afterAll(() => store.close());

const SHIP_TO = { first_name: 'Ann', last_name: 'Lee', line1: '123 Main St', city: 'Chicago', state: 'IL', zip: '60601', country: 'US' };

describe('reference store', () => {
  it('refuses unsigned and badly signed calls', async () => {
    const unsigned = await fetch(`${store.origin}/api/v2/items`);
    expect(unsigned.status).toBe(401);
    const forged = await fetch(`${store.origin}/api/v2/items`, {
      headers: { 'x-shop-key': STORE_KEY.id, 'x-shop-timestamp': String(Math.floor(NOW / 1000)), 'x-shop-signature': '00'.repeat(32) },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: { code: 'unauthorized', message: 'signature does not match' } });
  });

  it('serves the demo catalog page by page with decimal prices and the demo ids', async () => {
    const first = await store.call('GET', '/items?q=bouquet&per_page=2');
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ page: 1, per_page: 2 });
    expect(first.body.meta.total_pages).toBeGreaterThan(1);
    const all = await store.call('GET', '/items?per_page=100');
    const roses = all.body.data.find((i: any) => i.item_id === 'bouquet_roses');
    expect(roses.variants[0]).toMatchObject({ variant_id: 'bouquet_roses', price: '35.00', currency: 'USD', sku: 'FLW-ROSE-12' });
    const tee = (await store.call('GET', '/items/lookup?keys=TEE-M-GRN,florist-tee')).body.data;
    expect(tee).toHaveLength(1);
    expect(tee[0].matched).toEqual([
      { key: 'TEE-M-GRN', variant_id: 'florist_tee_m_green', by: 'sku' },
      { key: 'florist-tee', variant_id: tee[0].item.default_variant, by: 'slug' },
    ]);
  });

  it('keeps carts by id, prices coupons and shipping, and forgets an expired cart', async () => {
    const created = await store.call('POST', '/carts', {
      lines: [{ line_ref: 'a', variant_id: 'bouquet_roses', qty: 2 }],
      coupons: ['10OFF', 'NOPE'],
    });
    expect(created.status).toBe(201);
    expect(created.body.totals).toMatchObject({ items: '70.00', item_discounts: '7.00', grand_total: '63.00' });
    expect(created.body.coupons.filter((c: any) => !c.automatic)).toEqual([
      expect.objectContaining({
        code: '10OFF',
        state: 'applied',
        amount: '7.00',
        split: { lines: [{ line_ref: 'a', amount: '7.00' }], shipping: '0.00', order: '0.00' },
      }),
      expect.objectContaining({ code: 'NOPE', state: 'refused', why: 'unknown' }),
    ]);
    const id = created.body.cart_id;
    const shipped = await store.call('PUT', `/carts/${id}`, {
      lines: [{ line_ref: 'a', variant_id: 'bouquet_roses', qty: 2 }],
      ship_to: SHIP_TO,
      shipping_rate_id: 'std-ship',
    });
    expect(shipped.body.shipping.selected_rate_id).toBe('std-ship');
    expect(shipped.body.shipping.rates.map((r: any) => r.rate_id)).toEqual(['std-ship', 'exp-ship-us']);
    expect((await store.call('GET', `/carts/${id}`)).body.cart_id).toBe(id);
    await store.control('DELETE', '/carts');
    expect((await store.call('GET', `/carts/${id}`)).status).toBe(404);
  });

  it('places an order once per reference, refuses a wrong total and a declined card, and signs its webhooks', async () => {
    const cart = (
      await store.call('POST', '/carts', {
        lines: [{ line_ref: 'a', variant_id: 'pot_ceramic', qty: 1 }],
        ship_to: SHIP_TO,
        shipping_rate_id: 'std-ship',
      })
    ).body;
    const place = (extra: object) =>
      store.call('POST', '/orders', { cart_id: cart.cart_id, reference: 'chk_1', customer: { email: 'ann@example.com' }, ...extra });
    expect((await place({ expected_total: '1.00', payment: { kind: 'prepaid', processor_ref: 'tx_1' } })).body.error).toMatchObject({
      code: 'total_mismatch',
      actual_total: cart.totals.grand_total,
    });
    expect((await place({ payment: { kind: 'card', token: 'fail_token' } })).status).toBe(402);
    const placed = await place({ expected_total: cart.totals.grand_total, payment: { kind: 'prepaid', processor_ref: 'tx_1' } });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ reference: 'chk_1', status: 'paid', lines: [{ line_ref: 'a', qty: 1, qty_shipped: 0 }] });
    const again = await place({ expected_total: cart.totals.grand_total, payment: { kind: 'prepaid', processor_ref: 'tx_1' } });
    expect(again.status).toBe(200);
    expect(again.body.order_id).toBe(placed.body.order_id);

    const shipped = await store.call('POST', `/orders/${placed.body.order_id}/events`, { type: 'shipped', carrier: 'UPS' });
    expect(shipped.body).toMatchObject({ status: 'shipped', shipments: [{ status: 'shipped', carrier: 'UPS' }] });
    const changed = await store.call('GET', `/orders?updated_since=${new Date(NOW).toISOString()}`);
    expect(changed.body.data.map((o: any) => o.order_id)).toContain(placed.body.order_id);

    const deliveries = (await store.control('GET', '/webhooks')) as Array<{ type: string; headers: Record<string, string>; body: string }>;
    const last = deliveries.at(-1)!;
    expect(last.type).toBe('order.updated');
    expect(JSON.parse(last.body).data).toEqual({
      order_id: placed.body.order_id,
      reference: 'chk_1',
      cart_id: placed.body.cart_id,
      payment_id: null,
      status: 'shipped',
    });
    expect(last.headers['x-shop-signature']).toBe(signWebhook(STORE_WEBHOOK_SECRET, last.body, Math.floor(NOW / 1000)));
  });

  it('hands a cart to its hosted checkout page, where paying places the order with the reference', async () => {
    const cart = (await store.call('POST', '/carts', { lines: [{ line_ref: 'x', variant_id: 'ebook_flower_care', qty: 1 }] })).body;
    const link = (await store.call('POST', `/carts/${cart.cart_id}/checkout-link`, { reference: 'chk_handoff' })).body;
    const page = await fetch(link.url);
    expect(await page.text()).toContain('Pay now');
    const paid = await fetch(link.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=bo%40example.com&card_token=success_token',
    });
    expect(await paid.text()).toMatch(/order <strong id="order">#\d+/);
    expect((await store.call('GET', '/orders?reference=chk_handoff')).body.data[0]).toMatchObject({
      reference: 'chk_handoff',
      status: 'paid',
    });
  });

  it('asks the buyer to confirm a challenged card on its page: approved, the order; failed, nothing, and another card orders', async () => {
    const cartWith = async (line_ref: string) =>
      (
        await store.call('POST', '/carts', {
          lines: [{ line_ref, variant_id: 'pot_ceramic', qty: 1 }],
          ship_to: SHIP_TO,
          shipping_rate_id: 'std-ship',
        })
      ).body;
    const place = (cartId: string, token: string) =>
      store.call('POST', '/orders', { cart_id: cartId, customer: { email: 'ann@example.com' }, payment: { kind: 'card', token } });
    const decide = (url: string, decision: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `decision=${decision}` });

    const first = await cartWith('c1');
    const asked = await place(first.cart_id, 'action_required_token');
    expect([asked.status, asked.body.payment.status, asked.body.cart_id]).toEqual([202, 'requires_confirmation', first.cart_id]);
    expect(asked.body.payment.confirm_url).toBe(`${store.origin}/pay/${asked.body.payment.id}`);
    expect((await store.call('GET', `/orders?cart_id=${first.cart_id}`)).body.data).toEqual([]);
    expect(await (await fetch(asked.body.payment.confirm_url)).text()).toContain('Confirm your payment');
    expect((await decide(asked.body.payment.confirm_url, 'approve')).status).toBe(200);
    const [order] = (await store.call('GET', `/orders?cart_id=${first.cart_id}`)).body.data;
    expect(order).toMatchObject({ cart_id: first.cart_id, payment_id: asked.body.payment.id, status: 'paid', reference: null });
    const created = store.webhooks.deliveries.at(-1)!;
    expect([created.type, JSON.parse(created.body).data.payment_id]).toEqual(['order.created', asked.body.payment.id]);
    // The cart is ordered once: asked again, the store answers with that order.
    expect((await place(first.cart_id, 'success_token')).body.order_id).toBe(order.order_id);

    const second = await cartWith('c2');
    const failing = (await place(second.cart_id, 'action_required_token')).body.payment;
    expect((await decide(failing.confirm_url, 'fail')).status).toBe(402);
    expect(store.webhooks.deliveries.at(-1)!.type).toBe('payment.failed');
    expect((await fetch(failing.confirm_url)).status).toBe(404);
    const ordered = await place(second.cart_id, 'success_token');
    expect([ordered.status, ordered.body.cart_id, ordered.body.payment_id]).toEqual([201, second.cart_id, null]);
  });

  it('shows the tax its prices contain when they include tax', async () => {
    const inclusive = await startRestStore({ now: () => NOW, pricesIncludeTax: true });
    try {
      const cart = (
        await inclusive.call('POST', '/carts', {
          lines: [{ line_ref: 'a', variant_id: 'pot_ceramic', qty: 2 }],
          ship_to: SHIP_TO,
          shipping_rate_id: 'std-ship',
        })
      ).body;
      // 30.00 contains 30.00 × 6.25 / 106.25 = 1.76 of Illinois sales tax; nothing is added.
      expect(cart.tax).toEqual({ lines: [{ name: 'Illinois sales tax', amount: '1.76', included: true }], total: '0.00' });
      expect(cart.totals).toMatchObject({ items: '30.00', shipping: '5.00', tax: '0.00', tax_included: '1.76', grand_total: '35.00' });
      const placed = await inclusive.call('POST', '/orders', {
        cart_id: cart.cart_id,
        customer: { email: 'ann@example.com' },
        payment: { kind: 'card', token: 'success_token' },
      });
      expect(placed.body.totals).toMatchObject({ tax: '0.00', tax_included: '1.76', grand_total: '35.00' });
      expect(placed.body.tax_lines).toEqual([{ name: 'Illinois sales tax', amount: '1.76', included: true }]);
    } finally {
      await inclusive.close();
    }
  });

  it('adds faults on demand: throttling, errors, garbage', async () => {
    await store.control('POST', '/faults', { mode: 'throttle', count: 1, retry_after_seconds: 2 });
    const throttled = await store.call('GET', '/health').catch((e) => e);
    expect(throttled.status).toBe(429);
    await store.control('POST', '/faults', { mode: 'garbage' });
    await expect(store.call('GET', '/health')).rejects.toThrow(SyntaxError);
    expect((await store.call('GET', '/health')).status).toBe(200);
    expect((await store.control('GET', '/calls'))['GET /api/v2/health']).toBeGreaterThanOrEqual(3);
  });
});

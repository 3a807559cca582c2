/**
 * The WooCommerce simulator answers as a WooCommerce store would: REST API keys checked the way
 * WooCommerce checks them for the official client library (OAuth 1.0a over plain HTTP), paging
 * headers, Store API carts kept by Cart-Token with WooCommerce's error codes, signed webhooks
 * with a ping first, a payment page, and failures on demand.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator } from '../../simulators/woocommerce/server.js';
import { restClient, storeApi as store, type RestClient } from '../helpers/woo-clients.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let sim: WooSimulator;
let api: RestClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sim = await startWooSimulator();
  api = await restClient(sim.url);
  receiver = await startReceiver();
});

afterAll(async () => {
  await sim?.close();
  await receiver?.close();
});

describe('REST API keys', () => {
  it("accepts the client library's OAuth 1.0a signature over plain HTTP, search text and all", async () => {
    const response = await api.get('products', { search: 'red roses', per_page: 5 });
    expect(response.status).toBe(200);
    expect(response.data.map((p: { name: string }) => p.name)).toEqual(['Bouquet of Red Roses']);
  });

  it('refuses a wrong secret, basic auth over plain HTTP and anonymous calls the way WooCommerce does', async () => {
    const wrong = await restClient(sim.url, DEFAULT_KEY.consumerKey, 'cs_not_the_secret');
    await expect(wrong.get('products')).rejects.toMatchObject({
      response: { status: 401, data: { code: 'woocommerce_rest_authentication_error' } },
    });
    const anonymous = await fetch(`${sim.url}/wp-json/wc/v3/products`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('woocommerce_rest_cannot_view');
    const basic = await fetch(`${sim.url}/wp-json/wc/v3/products`, {
      headers: { authorization: `Basic ${Buffer.from(`${DEFAULT_KEY.consumerKey}:${DEFAULT_KEY.consumerSecret}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401); // basic auth only counts over HTTPS
  });
});

describe('catalog', () => {
  it('pages with X-WP-Total and X-WP-TotalPages and filters by price and stock status', async () => {
    const first = await api.get('products', { per_page: 4, page: 1, orderby: 'menu_order', order: 'asc' });
    expect(Number(first.headers['x-wp-total'])).toBe(sim.store.products.size);
    expect(Number(first.headers['x-wp-totalpages'])).toBe(Math.ceil(sim.store.products.size / 4));
    expect(first.data[0].name).toBe('Bouquet of Red Roses');
    const cheap = await api.get('products', { max_price: '20', per_page: 100 });
    expect(cheap.data.every((p: { price: string }) => Number(p.price) <= 20)).toBe(true);
    const out = await api.get('products', { stock_status: 'outofstock', per_page: 100 });
    expect(out.data.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Gardenias', 'Holiday Wreath']));
    await expect(api.get('products', { per_page: 101 })).rejects.toMatchObject({
      response: { status: 400, data: { code: 'rest_invalid_param' } },
    });
  });

  it('finds a variation by SKU and lists variations of several products in one call', async () => {
    const bySku = await api.get('products', { sku: 'TEE-M-WHT' });
    expect(bySku.data).toHaveLength(1);
    expect(bySku.data[0]).toMatchObject({
      type: 'variation',
      parent_id: sim.controls.idOf('florist_tee'),
      attributes: [
        { name: 'Size', option: 'M' },
        { name: 'Color', option: 'White' },
      ],
    });
    const parents = [sim.controls.idOf('florist_tee'), sim.controls.idOf('greeting_card')];
    const variations = await api.get('variations', { parent: parents.join(','), per_page: 100 });
    expect(variations.data).toHaveLength(7);
    const card = variations.data.find((v: { sku: string }) => v.sku === 'CARD-S');
    expect(card.attributes).toEqual([
      { id: 0, name: 'Size', slug: 'size', option: 'Small' },
      { id: 0, name: 'Message', slug: 'message', option: '' },
    ]);
  });

  it('answers coupons by code with their rules', async () => {
    const found = await api.get('coupons', { code: 'BIG50' });
    expect(found.data).toEqual([
      expect.objectContaining({ code: 'big50', discount_type: 'fixed_cart', amount: '10.00', minimum_amount: '50.00' }),
    ]);
    expect((await api.get('coupons', { code: 'NOPE' })).data).toEqual([]);
  });
});

describe('Store API cart', () => {
  it('keeps a cart by Cart-Token, prices shipping and tax for the address and rejects coupons with a sentence', async () => {
    const fresh = await store(sim, '/cart');
    expect(fresh.token).toMatch(/^ey/);
    const anonymousWrite = await store(sim, '/cart/add-item', { body: { id: sim.controls.idOf('bouquet_roses'), quantity: 1 } });
    expect(anonymousWrite).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_missing_nonce' } });

    const token = fresh.token;
    const added = await store(sim, '/cart/add-item', { token, body: { id: sim.controls.idOf('bouquet_roses'), quantity: 2 } });
    expect(added.status).toBe(201);
    expect(added.body.totals).toMatchObject({ total_items: '7000', total_price: '7000', currency_minor_unit: 2, total_shipping: null });

    const card = await store(sim, '/cart/add-item', { token, body: { id: sim.controls.idOf('greeting_card_small'), quantity: 1 } });
    expect(card.body).toMatchObject({ code: 'woocommerce_rest_missing_variation_data' });
    const withMessage = await store(sim, '/cart/add-item', {
      token,
      body: { id: sim.controls.idOf('greeting_card_small'), quantity: 1, variation: [{ attribute: 'Message', value: 'Thank You' }] },
    });
    expect(withMessage.body.items[1].variation).toEqual([
      { raw_attribute: 'attribute_size', attribute: 'Size', value: 'Small' },
      { raw_attribute: 'attribute_message', attribute: 'Message', value: 'Thank You' },
    ]);

    const address = await store(sim, '/cart/update-customer', {
      token,
      body: { shipping_address: { country: 'US', state: 'IL', postcode: '62704', city: 'Springfield' } },
    });
    const pkg = address.body.shipping_rates[0];
    expect(pkg.shipping_rates.map((r: { name: string; price: string }) => [r.name, r.price])).toEqual([
      ['Standard Shipping', '500'],
      ['Express Shipping (US)', '1500'],
    ]);
    expect(address.body.totals).toMatchObject({ total_items: '7450', total_shipping: '500', total_tax: '466', total_price: '8416' });

    const expired = await store(sim, '/cart/apply-coupon', { token, body: { code: 'SPRING2025' } });
    expect(expired).toMatchObject({
      status: 400,
      body: { code: 'woocommerce_rest_cart_coupon_error', message: 'This coupon has expired.' },
    });
    const applied = await store(sim, '/cart/apply-coupon', { token, body: { code: '10OFF' } });
    expect(applied.body.coupons).toEqual([
      expect.objectContaining({ code: '10off', totals: expect.objectContaining({ total_discount: '745' }) }),
    ]);
    const solo = await store(sim, '/cart/apply-coupon', { token, body: { code: 'solo25' } });
    expect(solo.body.coupons.map((c: { code: string }) => c.code)).toEqual(['solo25']); // individual use drops the others

    const express = await store(sim, '/cart/select-shipping-rate', {
      token,
      body: { package_id: 0, rate_id: pkg.shipping_rates[1].rate_id },
    });
    expect(express.body.totals.total_shipping).toBe('1500');
  });

  it("checks out with the store's own card gateway and refuses a declined card", async () => {
    const { token, nonce } = await store(sim, '/cart');
    await store(sim, '/cart/add-item', { token, body: { id: sim.controls.idOf('pot_ceramic'), quantity: 1 } });
    const address = {
      first_name: 'Jane',
      last_name: 'Doe',
      address_1: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      postcode: '62704',
      country: 'US',
    };
    const billing = { ...address, email: 'jane.doe@example.com' };
    const declined = await store(sim, '/checkout', {
      token,
      nonce,
      body: {
        billing_address: billing,
        shipping_address: address,
        payment_method: 'simulated_card',
        payment_data: [{ key: 'token', value: 'fail_token' }],
      },
    });
    expect(declined).toMatchObject({
      status: 400,
      body: { code: 'woocommerce_rest_checkout_process_payment_error', message: 'Your card was declined.' },
    });
    const paid = await store(sim, '/checkout', {
      token,
      nonce,
      body: {
        billing_address: billing,
        shipping_address: address,
        payment_method: 'simulated_card',
        payment_data: [{ key: 'token', value: 'success_token' }],
      },
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'processing', payment_result: { payment_status: 'success' } });
    const order = await api.get(`orders/${paid.body.order_id}`);
    expect(order.data).toMatchObject({
      status: 'processing',
      created_via: 'store-api',
      total: '20.94',
      shipping_total: '5.00',
      total_tax: '0.94',
    });
  });
});

describe('_fields', () => {
  it('trims a successful answer to the named fields, nested with dots, per batch sub-request; errors stay whole', async () => {
    const { data: products } = await api.get('products', { per_page: 2, _fields: 'id,name,prices.price,images.src' });
    expect(products).toHaveLength(2);
    for (const product of products) expect(Object.keys(product).sort()).toEqual(['id', 'images', 'name']);

    const { token } = await store(sim, '/cart');
    const roses = sim.controls.idOf('bouquet_roses');
    const batch = await store(sim, '/batch', {
      token,
      body: {
        requests: [
          {
            path: '/wc/store/v1/cart/add-item?_fields=items_count,totals.total_price',
            body: { id: roses, quantity: 1 },
            headers: { 'Cart-Token': token },
          },
          { path: '/wc/store/v1/cart/apply-coupon?_fields=items_count', body: { code: 'nope' }, headers: { 'Cart-Token': token } },
          { path: '/wc/store/v1/cart/update-customer', body: {}, headers: { 'Cart-Token': token } },
        ],
      },
    });
    const [added, refused, whole] = batch.body.responses;
    expect(added.body).toEqual({ items_count: 1, totals: { total_price: '3500' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'woocommerce_rest_cart_coupon_error', message: expect.any(String) });
    expect(whole.body).toMatchObject({ items_count: 1, items: [expect.objectContaining({ id: roses })] });
  });
});

describe('orders and webhooks', () => {
  it('pings a new webhook, then sends signed order deliveries; a handed-off order is paid on its payment page', async () => {
    const secret = 'webhook-secret-for-tests';
    const created = await api.post('webhooks', { name: 'gateway', topic: 'order.updated', delivery_url: receiver.url('/hook'), secret });
    expect(created.status).toBe(201);
    const [ping] = await receiver.waitFor(1);
    expect(ping!.body).toBe(`webhook_id=${created.data.id}`);
    expect(ping!.headers['x-wc-webhook-signature']).toBeUndefined();

    const order = await api.post('orders', {
      status: 'pending',
      billing: { email: 'john.doe@example.com', country: 'US', state: 'IL' },
      shipping: { country: 'US', state: 'IL' },
      line_items: [{ product_id: sim.controls.idOf('bouquet_tulips'), quantity: 1 }],
      shipping_lines: [{ method_id: 'flat_rate', method_title: 'Standard Shipping', total: '5.00' }],
      meta_data: [{ key: '_proto_reference', value: 'chk_123' }],
    });
    expect(order.data).toMatchObject({ status: 'pending', needs_payment: true, total: '36.88' });
    const page = await fetch(order.data.payment_url);
    expect(await page.text()).toContain('Pay for order');
    const pay = await fetch(order.data.payment_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'payment_method=simulated_card&token=success_token',
      redirect: 'manual',
    });
    expect(pay.status).toBe(302);
    await sim.controls.flushWebhooks();
    const deliveries = await receiver.waitFor(2);
    const delivery = deliveries.at(-1)!;
    expect(delivery.headers['x-wc-webhook-topic']).toBe('order.updated');
    expect(delivery.headers['x-wc-webhook-signature']).toBe(createHmac('sha256', secret).update(delivery.body).digest('base64'));
    expect(JSON.parse(delivery.body)).toMatchObject({
      id: order.data.id,
      status: 'processing',
      meta_data: [expect.objectContaining({ key: '_proto_reference', value: 'chk_123' })],
    });
  });

  it('fails on demand: host throttling, an HTML error page, a PHP warning before the JSON', async () => {
    sim.controls.fail({ kind: 'throttle', retryAfter: 3 });
    const throttled = await fetch(`${sim.url}/wp-json/wc/v3/products`);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('3');
    sim.controls.fail({ kind: 'php_warning', match: /^\/wc\/store/ });
    const warned = await fetch(`${sim.url}/wp-json/wc/store/v1/cart`);
    expect(await warned.text()).toMatch(/^<br \/>\n<b>Warning<\/b>/);
    sim.controls.fail({ kind: 'server_error', status: 500 });
    const broken = await fetch(`${sim.url}/wp-json/wc/v3/orders`);
    expect(broken.status).toBe(500);
    expect(broken.headers.get('content-type')).toContain('text/html');
  });
});

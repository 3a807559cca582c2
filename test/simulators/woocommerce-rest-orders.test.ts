/**
 * The simulated REST API (`wc/v3`) lists and updates orders as WooCommerce does on a store west of
 * UTC (the default: America/New_York): dates written in the site's wall clock and in GMT, date
 * filters compared with the local columns unless `dates_are_gmt`, a search that never reads
 * custom meta, unknown parameters ignored, and the webhooks controller's create and update.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator } from '../../simulators/woocommerce/server.js';
import { ADDRESS, BILLING, refused, restClient, type RestClient } from '../helpers/woo-clients.js';
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

const placeOrder = (reference: string) =>
  api.post('orders', {
    billing: BILLING,
    shipping: ADDRESS,
    line_items: [{ product_id: sim.controls.idOf('bouquet_tulips'), quantity: 1 }],
    meta_data: [{ key: '_proto_reference', value: reference }],
  });

/** A minute before now, in UTC, without and with the "Z". */
const aMinuteAgo = () => new Date(Date.now() - 60_000).toISOString().slice(0, 19);
const ids = (orders: Array<{ id: number }>) => orders.map((o) => o.id);

describe('order dates on a store west of UTC', () => {
  it('writes date_created in the site wall clock and date_created_gmt in UTC', async () => {
    const { data: order } = await placeOrder('chk_dates');
    const hours = (Date.parse(`${order.date_created}Z`) - Date.parse(`${order.date_created_gmt}Z`)) / 3_600_000;
    expect([-5, -4]).toContain(hours); // EST or EDT
    expect(Date.parse(`${order.date_created_gmt}Z`)).toBeLessThanOrEqual(Date.now());
  });

  it('reads an `after` in UTC without "Z" as local time: a just-placed order is not found unless dates_are_gmt', async () => {
    const after = aMinuteAgo();
    const { data: order } = await placeOrder('chk_after');
    const local = await api.get('orders', { after, per_page: 100 });
    expect(ids(local.data)).not.toContain(order.id);
    const gmt = await api.get('orders', { after, dates_are_gmt: true, per_page: 100 });
    expect(ids(gmt.data)).toContain(order.id);
    const zulu = await api.get('orders', { after: `${after}Z`, per_page: 100 });
    expect(ids(zulu.data)).toContain(order.id);
  });

  it('turns a "Z" value into the local wall clock even against the GMT column, so dates_are_gmt with "Z" widens the window', async () => {
    const after = aMinuteAgo();
    const { data: old } = await placeOrder('chk_old');
    sim.store.orders.get(old.id)!.dateCreated = new Date(Date.now() - 3 * 3_600_000); // placed three hours ago
    const mixed = await api.get('orders', { after: `${after}Z`, dates_are_gmt: true, per_page: 100 });
    expect(ids(mixed.data)).toContain(old.id);
    const right = await api.get('orders', { after: `${after}Z`, per_page: 100 });
    expect(ids(right.data)).not.toContain(old.id);
  });

  it('compares modified_after with the local modification date the same way', async () => {
    const { data: order } = await placeOrder('chk_modified');
    const since = aMinuteAgo();
    await api.put(`orders/${order.id}`, { status: 'processing' });
    expect(ids((await api.get('orders', { modified_after: since, per_page: 100 })).data)).not.toContain(order.id);
    expect(ids((await api.get('orders', { modified_after: since, dates_are_gmt: 1, per_page: 100 })).data)).toContain(order.id);
  });

  it('refuses a date that is not RFC 3339 and a dates_are_gmt that is not a boolean', async () => {
    expect(await refused(api.get('orders', { after: '2026-03-01' }))).toMatchObject({
      status: 400,
      data: { code: 'rest_invalid_param', data: { params: { after: 'Invalid date.' } } },
    });
    expect((await refused(api.get('orders', { after: `${aMinuteAgo()}Z`, dates_are_gmt: 'yes' }))).data.code).toBe('rest_invalid_param');
  });

  it('finds nothing to tell apart on a store on UTC', async () => {
    const utc = await startWooSimulator({ timezone: 'UTC' });
    try {
      const client = await restClient(utc.url);
      const after = aMinuteAgo();
      const { data: order } = await client.post('orders', {
        billing: BILLING,
        line_items: [{ product_id: utc.controls.idOf('pot_ceramic') }],
      });
      expect(order.date_created).toBe(order.date_created_gmt);
      expect(ids((await client.get('orders', { after })).data)).toContain(order.id);
    } finally {
      await utc.close();
    }
  });
});

describe('order search and filters', () => {
  it('searches ids, emails, names and line items, never custom meta; meta_key and meta_value filter nothing', async () => {
    const { data: order } = await placeOrder('chk_search_me');
    expect(ids((await api.get('orders', { search: 'chk_search_me' })).data)).toEqual([]);
    expect(ids((await api.get('orders', { search: 'jane.doe@', per_page: 100 })).data)).toContain(order.id);
    expect(ids((await api.get('orders', { search: 'Tulips', per_page: 100 })).data)).toContain(order.id);
    expect(ids((await api.get('orders', { search: String(order.id) })).data)).toEqual([order.id]);
    const all = await api.get('orders', { per_page: 100 });
    const byMeta = await api.get('orders', { meta_key: '_proto_reference', meta_value: 'chk_search_me', per_page: 100 });
    expect(byMeta.headers['x-wp-total']).toBe(all.headers['x-wp-total']);
  });

  it('takes a list of statuses, refuses an unknown one, and lists checkout drafts under `any`', async () => {
    const { data: order } = await placeOrder('chk_status');
    sim.store.orders.get(order.id)!.status = 'checkout-draft';
    expect(ids((await api.get('orders', { per_page: 100 })).data)).toContain(order.id);
    expect((await api.get(`orders/${order.id}`)).data.needs_payment).toBe(true); // drafts are payable (DraftOrders)
    expect(ids((await api.get('orders', { status: 'pending,checkout-draft', per_page: 100 })).data)).toContain(order.id);
    expect(ids((await api.get('orders', { status: 'processing', per_page: 100 })).data)).not.toContain(order.id);
    expect((await refused(api.get('orders', { status: 'paid' }))).data.code).toBe('rest_invalid_param');
  });

  it('pages with X-WP-Total and X-WP-TotalPages and answers an empty page past the end', async () => {
    const first = await api.get('orders', { per_page: 2, page: 1 });
    const total = Number(first.headers['x-wp-total']);
    expect(Number(first.headers['x-wp-totalpages'])).toBe(Math.ceil(total / 2));
    const past = await api.get('orders', { per_page: 2, page: Math.ceil(total / 2) + 1 });
    expect(past.data).toEqual([]);
    expect(past.headers['x-wp-total']).toBe(String(total));
  });
});

describe('order lines and updates', () => {
  it("reports a line's price as its total after discounts over the quantity", async () => {
    const { data: order } = await api.post('orders', {
      billing: BILLING,
      shipping: ADDRESS,
      line_items: [{ product_id: sim.controls.idOf('bouquet_roses'), quantity: 2 }],
      coupon_lines: [{ code: '10off' }],
    });
    const [line] = order.line_items;
    expect(line.subtotal).toBe('70.00');
    expect(line.total).toBe('63.00');
    expect(line.price).toBe(31.5);
  });

  it('answers an update of an unknown order 400 and a read 404', async () => {
    expect(await refused(api.put('orders/999999', { status: 'processing' }))).toMatchObject({
      status: 400,
      data: { code: 'woocommerce_rest_shop_order_invalid_id' },
    });
    expect((await refused(api.get('orders/999999'))).status).toBe(404);
  });
});

describe('webhooks', () => {
  it('creates every webhook active and pings it whatever the receiver answers; an update never pings', async () => {
    receiver.answer(500);
    const created = await api.post('webhooks', { topic: 'order.updated', delivery_url: receiver.url('/w'), status: 'paused', secret: 's' });
    expect(created).toMatchObject({ status: 201, data: { status: 'active' } });
    await receiver.waitFor(1);
    receiver.answer(200);
    await api.put(`webhooks/${created.data.id}`, { status: 'paused' });
    await api.put(`webhooks/${created.data.id}`, { status: 'active' });
    expect(receiver.received.filter((r) => r.body.startsWith('webhook_id='))).toHaveLength(1);
    expect(await refused(api.put('webhooks/999999', { status: 'active' }))).toMatchObject({ status: 400 });
  });
});

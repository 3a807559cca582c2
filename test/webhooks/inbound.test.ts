/**
 * Backend webhooks in (`POST /webhooks/backend`): the tenant's adapter verifies each delivery over
 * the raw bytes with the store's own scheme (here a Shopify-style HMAC); a verified change of an
 * order the gateway placed becomes an order-updated webhook with the order read afresh, once per
 * backend event id, and only when the order differs from what the platform was last sent.
 */
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BackendError, type Adapter, type BackendEvent } from '../../adapters/contract.js';
import { backendEventId } from '../../src/capabilities/order/order-event.js';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { bodyOf } from './platform-side.js';

const STORE_SECRET = 'shpss_webhook_secret_of_the_store';
const hmac = (body: string | Buffer) => createHmac('sha256', STORE_SECRET).update(body).digest('base64');

/** Shopify's scheme: X-Shopify-Hmac-Sha256 over the raw body; the order id in the body, the delivery id in a header. */
function verifyShopifyStyle(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): BackendEvent | null {
  const signature = headers['x-shopify-hmac-sha256'];
  if (typeof signature !== 'string' || signature !== hmac(rawBody)) return null;
  const orderId = /"order_id":"([^"]+)"/.exec(rawBody.toString('utf8'))?.[1];
  const eventId = headers['x-shopify-webhook-id'];
  return orderId && typeof eventId === 'string' ? { kind: 'order', eventId, orderId, topic: String(headers['x-shopify-topic']) } : null;
}

let gw: OrderGateway;
let receiver: WebhookReceiver;
/** Bodies the verifier was handed. */
const verified: Buffer[] = [];
let failGetOrder = 0;

/** The demo store behind a Shopify-style verifier, and failing reads when a test asks. */
const shopifyStyle = (adapter: Adapter) =>
  new Proxy(adapter, {
    get(target, key) {
      if (key === 'verifyWebhook') {
        return (headers: Record<string, string | string[] | undefined>, raw: Buffer) => {
          verified.push(raw);
          return verifyShopifyStyle(headers, raw);
        };
      }
      if (key === 'getOrder' && failGetOrder > 0) {
        failGetOrder -= 1;
        return () => Promise.reject(new BackendError('the store answered 502', false));
      }
      return Reflect.get(target, key, target);
    },
  });

beforeAll(async () => {
  receiver = await startReceiver();
  gw = await orderGateway({ wrapAdapter: shopifyStyle });
});
afterAll(async () => {
  await gw.close();
  await receiver.close();
});
afterEach(() => {
  receiver.received.length = 0;
  verified.length = 0;
});

let deliveries = 0;
function backendWebhook(
  orderId: string,
  options: { eventId?: string; body?: string; signature?: string; contentType?: string; to?: OrderGateway } = {},
) {
  const body = options.body ?? `{ "order_id":"${orderId}",  "topic": "orders/updated" }`;
  return (options.to ?? gw).app.inject({
    method: 'POST',
    url: '/webhooks/backend',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-shopify-topic': 'orders/updated',
      'x-shopify-webhook-id': options.eventId ?? `wh_${++deliveries}`,
      'x-shopify-hmac-sha256': options.signature ?? hmac(body),
    },
    payload: body,
  });
}

describe('backend webhooks', () => {
  it('turn a verified order change into an order-updated webhook carrying the order as the store has it now', async () => {
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await receiver.waitFor(1);
    // The merchant ships in the store's own admin; the store then tells the gateway.
    await gw.adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l2', quantity: 1 }] });
    const res = await backendWebhook(orderId, { eventId: 'wh_ship_1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'queued' });

    const [, update] = await receiver.waitFor(2);
    expect(update!.headers['webhook-id']).toBe(backendEventId('shop', 'wh_ship_1'));
    const order = bodyOf(update!);
    expect(order.line_items.map((l) => l.status)).toEqual(['processing', 'partial', 'processing']);
    expect(order.fulfillment.events).toHaveLength(1);
  });

  it('process a redelivered event once', async () => {
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await gw.adapter.simulate(orderId, { type: 'ship' });
    expect((await backendWebhook(orderId, { eventId: 'wh_again' })).json()).toEqual({ status: 'queued' });
    expect((await backendWebhook(orderId, { eventId: 'wh_again' })).json()).toEqual({ status: 'duplicate' });
    await receiver.waitFor(2);
    await expect.poll(async () => (await orderWebhookQueue(gw.store, 'shop').depth()).queued).toBe(0);
    expect(receiver.received.map((w) => w.headers['webhook-id'])).toEqual([expect.any(String), backendEventId('shop', 'wh_again')]);
  });

  it('send nothing for an event that leaves the order as the platform was last sent it, on any replica', async () => {
    const replica = await orderGateway({ store: gw.store, clock: gw.clock, wrapAdapter: shopifyStyle });
    try {
      const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
      // The store tells of the order it was just asked to place: the platform has it already (order created).
      expect((await backendWebhook(orderId)).json()).toEqual({ status: 'unchanged' });
      // One shipment, two store events (Shopify: fulfillments/create, then orders/updated), each to another replica.
      await gw.adapter.simulate(orderId, { type: 'ship' });
      expect((await backendWebhook(orderId)).json()).toEqual({ status: 'queued' });
      expect((await backendWebhook(orderId, { to: replica })).json()).toEqual({ status: 'unchanged' });
      // A real change later is announced again.
      await gw.adapter.simulate(orderId, { type: 'deliver' });
      expect((await backendWebhook(orderId, { to: replica })).json()).toEqual({ status: 'queued' });

      const [, shipped, delivered] = await receiver.waitFor(3);
      expect(bodyOf(shipped!).fulfillment.events.map((e) => e.type)).toEqual(['shipped']);
      expect(bodyOf(delivered!).fulfillment.events.map((e) => e.type)).toEqual(['shipped', 'delivered']);
      await expect.poll(async () => (await orderWebhookQueue(gw.store, 'shop').depth()).queued).toBe(0);
      expect(receiver.received).toHaveLength(3);
    } finally {
      await replica.close();
    }
  });

  it('are refused with 401 when they do not verify, and change nothing', async () => {
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await receiver.waitFor(1);
    const forged = await backendWebhook(orderId, { signature: hmac('something else') });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ code: 'webhook_unverified', content: "the webhook does not verify with this store's webhook secret" });
    const unsigned = await gw.app.inject({
      method: 'POST',
      url: '/webhooks/backend',
      headers: { 'content-type': 'application/json' },
      payload: `{"order_id":"${orderId}"}`,
    });
    expect(unsigned.statusCode).toBe(401);
    const empty = await gw.app.inject({ method: 'POST', url: '/webhooks/backend' });
    expect(empty.statusCode).toBe(401);
    expect(await orderWebhookQueue(gw.store, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
  });

  it('hand the verifier the exact bytes sent, whatever their media type', async () => {
    const orderId = await gw.placeOrder();
    const json = `{"order_id":"${orderId}",\n  "note": "\\u00e9 kept as sent" }`;
    expect((await backendWebhook(orderId, { body: json })).statusCode).toBe(200);
    const form = `order_id=x&payload={"order_id":"${orderId}"}`;
    expect((await backendWebhook(orderId, { body: form, contentType: 'application/x-www-form-urlencoded' })).statusCode).toBe(200);
    const text = `{"order_id":"${orderId}"}`;
    expect((await backendWebhook(orderId, { body: text, contentType: 'text/plain; charset=latin1' })).statusCode).toBe(200);
    expect(verified.map((b) => b.toString('utf8'))).toEqual([json, form, text]);
  });

  it('about orders the gateway did not place, or whose platform gave no webhook URL, are acknowledged and ignored', async () => {
    expect((await backendWebhook('ord_from_the_storefront')).json()).toEqual({ status: 'ignored' });
    const quiet = await gw.placeOrder();
    expect((await backendWebhook(quiet)).json()).toEqual({ status: 'ignored' });
    expect(await orderWebhookQueue(gw.store, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
  });

  it("that fail while the store is read answer 503, and the store's redelivery is processed", async () => {
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await receiver.waitFor(1);
    await gw.adapter.simulate(orderId, { type: 'ship' });
    failGetOrder = 1;
    const failed = await backendWebhook(orderId, { eventId: 'wh_retry' });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().code).toBe('backend_unavailable');
    const redelivered = await backendWebhook(orderId, { eventId: 'wh_retry' });
    expect(redelivered.json()).toEqual({ status: 'queued' });
    const [, update] = await receiver.waitFor(2);
    expect(update!.headers['webhook-id']).toBe(backendEventId('shop', 'wh_retry'));
  });
});

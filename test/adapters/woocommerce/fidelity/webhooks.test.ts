/**
 * Fidelity: how WooCommerce delivers order webhooks
 * (woocommerce/woocommerce plugins/woocommerce/includes/class-wc-webhook.php, wc-webhook-functions.php).
 * - Deliveries are queued (`woocommerce_webhook_process_delivery`, run by Action Scheduler) and
 *   sent after the request that changed the order has been answered.
 * - Every order but a draft is announced (WC_Webhook::is_valid_resource skips only draft,
 *   auto-draft and new): an order created `pending`, unpaid, fires `order.created`.
 * - A failed delivery is logged and counted (failed_delivery), never retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator } from '../../../../simulators/woocommerce/server.js';
import { startReceiver, type WebhookReceiver } from '../../../helpers/webhook-receiver.js';
import { WooHttp } from '../../../../adapters/woocommerce/http.js';

let sim: WooSimulator;
let receiver: WebhookReceiver;
let http: WooHttp;

beforeAll(async () => {
  sim = await startWooSimulator();
  receiver = await startReceiver();
  http = new WooHttp({
    storeUrl: sim.url,
    consumerKey: DEFAULT_KEY.consumerKey,
    consumerSecret: DEFAULT_KEY.consumerSecret,
    queryStringAuth: false,
    timeoutMs: 5_000,
  });
  const hook = await http.rest('POST', 'webhooks', { data: { topic: 'order.created', delivery_url: receiver.url(), secret: 's' } });
  expect(hook.status).toBe(201);
});
afterAll(async () => {
  await sim?.close();
  await receiver?.close();
});

const pendingOrder = () =>
  http.rest<{ id: number }>('POST', 'orders', {
    data: { status: 'pending', line_items: [{ product_id: sim.controls.idOf('bouquet_roses'), quantity: 1 }] },
  });

describe('order webhooks (class-wc-webhook.php)', () => {
  it('announce a pending, unpaid order, after the call that created it was answered', async () => {
    sim.controls.resetCalls();
    const created = await pendingOrder();
    await sim.controls.flushWebhooks();
    const answeredAt = sim.controls.timedCalls().find((c) => c.route === '/wc/v3/orders')!.end!;
    const delivery = sim.controls.deliveries().find((d) => d.body.startsWith('{') && JSON.parse(d.body).id === created.body.id)!;
    expect(JSON.parse(delivery.body)).toMatchObject({ status: 'pending', date_paid_gmt: null });
    expect(delivery.headers['x-wc-webhook-topic']).toBe('order.created');
    expect(delivery.sentAt).toBeGreaterThanOrEqual(answeredAt);
  });

  it('never retry a delivery that failed', async () => {
    receiver.answer(500);
    const created = await pendingOrder();
    await sim.controls.flushWebhooks();
    receiver.answer(200);
    await sim.controls.flushWebhooks();
    const attempts = sim.controls.deliveries().filter((d) => d.body.startsWith('{') && JSON.parse(d.body).id === created.body.id);
    expect(attempts.map((d) => d.status)).toEqual([500]);
  });
});

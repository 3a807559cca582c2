/**
 * Orders read back from the store (refunds, tracking from core fulfillments or the Shipment
 * Tracking extension, cancellation) and the store's webhooks verified: signed deliveries become
 * order events, the unsigned first ping is acknowledged, product changes reach the catalog cache.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogChange, PlaceOrderRequest } from '../../../adapters/contract.js';
import type { TrackingMode } from '../../../simulators/woocommerce/rest-api.js';
import { ADDRESS, WEBHOOK_SECRET, wooSubject, type WooSubject } from './harness.js';

const BUYER = { email: 'jane.doe@example.com' };

async function placed(subject: WooSubject, reference: string): Promise<string> {
  const id = (demoId: string) => String(subject.sim.controls.idOf(demoId));
  const lines = [
    { lineId: 'li_1', variantId: id('bouquet_tulips'), quantity: 2 },
    { lineId: 'li_2', variantId: id('pot_ceramic'), quantity: 1 },
  ];
  const method = { methodId: 'm', type: 'shipping' as const, lineIds: ['li_1', 'li_2'], destination: { address: ADDRESS } };
  const open = await subject.adapter.quote({
    lines,
    buyer: BUYER,
    discountCodes: [],
    fulfillment: { multiGroup: false, methods: [method] },
  });
  const rate = open.fulfillment![0]!.groups[0]!.options[0]!.id;
  const request = {
    handle: open.handle!,
    lines,
    buyer: BUYER,
    discountCodes: [],
    fulfillment: { multiGroup: false, methods: [{ ...method, selectedOptions: { 'package-0': rate } }] },
  };
  const quote = await subject.adapter.quote(request);
  const order: PlaceOrderRequest = {
    reference,
    quote: request,
    expectedTotal: quote.totals.total,
    buyer: BUYER,
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: `txn_${reference}`, amount: quote.totals.total } },
  };
  const result = await subject.adapter.placeOrder(order);
  if (result.status !== 'placed') throw new Error(JSON.stringify(result));
  return result.orderId;
}

describe.each<TrackingMode>(['fulfillments', 'shipment-tracking'])('orders on a store with %s', (tracking) => {
  let subject: WooSubject;
  beforeAll(async () => {
    subject = await wooSubject({ simulator: { tracking } });
  });
  afterAll(() => subject?.close());

  it("reads lines with the checkout's line ids, tracking, refunds and totals as charged", async () => {
    const orderId = await placed(subject, `chk_${tracking}`);
    const fresh = await subject.adapter.getOrder(orderId);
    expect(fresh).toMatchObject({ id: orderId, reference: `chk_${tracking}`, currency: 'USD', events: [], adjustments: [] });
    expect(fresh!.lines.map((l) => [l.checkoutLineId, l.quantity])).toEqual([
      ['li_1', { original: 2, current: 2, fulfilled: 0 }],
      ['li_2', { original: 1, current: 1, fulfilled: 0 }],
    ]);
    expect(fresh!.totals).toEqual({ subtotal: 7500, itemsDiscount: 0, discount: 0, shipping: 500, tax: 469, total: 8469 });

    const order = subject.sim.store.orders.get(Number(orderId))!;
    subject.sim.controls.ship(orderId, {
      trackingNumber: '1Z999AA10123456784',
      provider: 'UPS',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    });
    subject.sim.controls.refund(orderId, {
      amount: 1500,
      reason: 'Pot arrived cracked',
      lines: [{ lineId: order.lines[1]!.id, quantity: 1, total: 1500 }],
    });
    const later = await subject.adapter.getOrder(orderId);
    expect(later!.events).toEqual([
      expect.objectContaining({
        type: 'shipped',
        trackingNumber: '1Z999AA10123456784',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        carrier: 'UPS',
      }),
    ]);
    expect(later!.adjustments).toEqual([
      expect.objectContaining({
        type: 'refund',
        status: 'completed',
        amount: -1500,
        description: 'Pot arrived cracked',
        lines: [{ id: String(order.lines[1]!.id), quantity: -1 }],
      }),
    ]);
    expect(later!.lines[1]!.quantity).toEqual({ original: 1, current: 0, fulfilled: 0 });
    expect(later!.lines[0]!.quantity).toEqual({ original: 2, current: 2, fulfilled: 2 });
  });

  it('answers null for an order the store does not have, and marks a cancelled order', async () => {
    expect(await subject.adapter.getOrder('987654')).toBeNull();
    expect(await subject.adapter.getOrder('not-a-number')).toBeNull();
    const orderId = await placed(subject, `chk_cancel_${tracking}`);
    subject.sim.controls.setOrderStatus(orderId, 'cancelled');
    expect(await subject.adapter.getOrder(orderId)).toMatchObject({
      canceled: true,
      adjustments: [expect.objectContaining({ type: 'cancellation' })],
    });
  });
});

describe('webhooks from the store', () => {
  let subject: WooSubject;
  beforeAll(async () => {
    subject = await wooSubject();
  });
  afterAll(() => subject?.close());

  it('verifies a signed delivery over its raw bytes and refuses a tampered or unsigned one', async () => {
    const orderId = await placed(subject, 'chk_hooks');
    const { headers, rawBody } = subject.sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.created', orderId);
    const event = subject.adapter.verifyWebhook(headers, rawBody);
    expect(event).toMatchObject({ kind: 'order', orderId, topic: 'order.created', reference: 'chk_hooks' });
    const tampered = Buffer.from(rawBody.toString('utf8').replace('"processing"', '"completed"'));
    expect(subject.adapter.verifyWebhook(headers, tampered)).toBeNull();
    expect(subject.adapter.verifyWebhook({ ...headers, 'x-wc-webhook-signature': 'AAAA' }, rawBody)).toBeNull();
    const other = subject.sim.controls.signedDelivery('another-secret', 'order.created', orderId);
    expect(subject.adapter.verifyWebhook(other.headers, other.rawBody)).toBeNull();
  });

  it('gives two changes delivered in the same second different event ids, and a redelivery the same one', async () => {
    const orderId = await placed(subject, 'chk_same_second');
    const first = subject.sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.updated', orderId);
    subject.sim.controls.setOrderStatus(orderId, 'completed');
    const second = subject.sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.updated', orderId);
    expect(first.headers['x-wc-webhook-delivery-id']).toBe(second.headers['x-wc-webhook-delivery-id']);
    const a = subject.adapter.verifyWebhook(first.headers, first.rawBody)!;
    const b = subject.adapter.verifyWebhook(second.headers, second.rawBody)!;
    expect(a.eventId).not.toBe(b.eventId);
    expect(subject.adapter.verifyWebhook(first.headers, first.rawBody)!.eventId).toBe(a.eventId);
  });

  it('acknowledges the unsigned first ping and tells the catalog cache about product changes', () => {
    expect(subject.adapter.verifyWebhook({ 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from('webhook_id=12'))).toEqual({
      kind: 'ping',
      eventId: 'ping-12',
    });
    expect(subject.adapter.verifyWebhook({}, Buffer.from('{"id":1}'))).toBeNull();
    const changes: CatalogChange[] = [];
    const stop = subject.adapter.onCatalogChange((c) => changes.push(c));
    const body = Buffer.from(JSON.stringify({ id: 101, name: 'Bouquet of Red Roses' }));
    const headers = {
      'x-wc-webhook-topic': 'product.updated',
      'x-wc-webhook-delivery-id': 'd1',
      'x-wc-webhook-signature': createHmac('sha256', WEBHOOK_SECRET).update(body).digest('base64'),
    };
    expect(subject.adapter.verifyWebhook(headers, body)).toMatchObject({ kind: 'ping' });
    expect(changes).toEqual([{ productIds: ['101'] }]);
    stop();
  });
});

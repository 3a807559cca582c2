/**
 * Fidelity: webhooks and order tags as Shopify has them.
 * - Duplicates: one event may arrive more than once, each delivery with its own
 *   X-Shopify-Webhook-Id; the same X-Shopify-Event-Id marks them
 *   (https://shopify.dev/docs/apps/build/webhooks/ignore-duplicates).
 * - Order tags are at most 40 characters (assumption, see docs/adapters/shopify.md).
 * - A subscription's address "Supports an HTTPS URL, a Google Pub/Sub URI ... or an Amazon
 *   EventBridge event source ARN" (`WebhookSubscriptionInput.uri`, Admin 2026-10); the simulator
 *   takes plain HTTP to this machine only, for local gateways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopifySetup, type ShopifySetup } from '../helpers.js';
import { placePaid, readyQuote } from './checkout.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterAll(() => s.close());

const roses = () => s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');

describe('Shopify fidelity: webhooks', () => {
  it('a redelivered event (new X-Shopify-Webhook-Id, same X-Shopify-Event-Id) is the same event to the gateway', async () => {
    const { request, quote } = await readyQuote(s, [{ lineId: 'l1', variantId: roses(), quantity: 1 }]);
    const placed = await placePaid(s, request, quote);
    expect(placed.status).toBe('placed');
    const first = s.sim.webhooks.deliveries.at(-1)!;
    const again = await s.sim.webhooks.redeliver(first);
    expect(again.headers['x-shopify-webhook-id']).not.toBe(first.headers['x-shopify-webhook-id']);
    const events = [first, again].map((d) => s.adapter.verifyWebhook(d.headers, Buffer.from(d.body)));
    expect(events[0]).toMatchObject({ kind: 'order', eventId: first.headers['x-shopify-event-id'] });
    expect(events[1]).toEqual(events[0]);
  });
});

describe('Shopify fidelity: draft order tags', () => {
  it('a gateway checkout id (chk_ and 22 characters) is placed with a tag Shopify accepts, and found again by it', async () => {
    const { request, quote } = await readyQuote(s, [{ lineId: 'l1', variantId: roses(), quantity: 1 }]);
    const reference = 'chk_AbCdEfGhIjKlMnOpQrStUv';
    const placed = await placePaid(s, request, quote, reference);
    expect(placed).toMatchObject({ status: 'placed' });
    const draft = s.sim.drafts.all().at(-1)!;
    expect(draft.input.tags!.every((t) => t.length <= 40)).toBe(true);
    await expect(s.adapter.findOrderByReference(reference)).resolves.toMatchObject({ orderId: (placed as { orderId: string }).orderId });
    // A retry of the same checkout finds that order instead of placing a second one.
    await expect(placePaid(s, request, quote, reference)).resolves.toEqual(placed);
  });
});

describe('Shopify fidelity: webhook subscriptions', () => {
  it('an address Shopify does not deliver to (plain HTTP to another host) is refused with its words; nothing is subscribed', async () => {
    const before = s.sim.webhooks.subscriptions.length;
    await expect(s.adapter.registerWebhooks('http://gateway.example/webhooks/backend')).rejects.toThrow(
      /refused the ORDERS_CREATE subscription: Address is invalid/,
    );
    expect(s.sim.webhooks.subscriptions).toHaveLength(before);
    await expect(s.adapter.registerWebhooks('https://gateway.example/webhooks/backend')).resolves.toMatchObject({
      created: expect.arrayContaining(['ORDERS_CREATE', 'ORDERS_UPDATED']),
    });
  });
});

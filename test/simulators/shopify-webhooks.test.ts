/**
 * Webhook subscriptions and deliveries as Shopify makes them (simulators/shopify/webhooks.ts):
 * HTTPS addresses, signed deliveries, duplicates of one event, retries of a failed delivery with
 * the original payload on Shopify's schedule, and the subscription removed after the last retry fails.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RETRIES } from '../../simulators/shopify/webhooks.js';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { shopifyClient } from './shopify-client.js';

const SUBSCRIBE = `mutation($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
    webhookSubscription { id topic } userErrors { field message } } }`;

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
let now = Date.parse('2026-05-01T12:00:00Z');
/** The receiving app: answers the statuses queued, then 200; keeps what it got. */
let receiver: Server;
let receiverUrl = '';
const statuses: number[] = [];
const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];

beforeAll(async () => {
  sim = await startShopifySimulator({ now: () => now });
  client = shopifyClient(sim);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await sim.close();
  await new Promise((done) => receiver.close(done));
});

const placeOrder = async () => {
  const created = await client.admin(`mutation($input: DraftOrderInput!) { draftOrderCreate(input: $input) { draftOrder { id } } }`, {
    input: { lineItems: [{ variantId: client.variant('ebook_flower_care'), quantity: 1 }] },
  });
  await client.admin(`mutation($id: ID!) { draftOrderComplete(id: $id) { userErrors { message } } }`, {
    id: created.body.data.draftOrderCreate.draftOrder.id,
  });
};

describe('Shopify simulator: webhooks', () => {
  it('subscribes HTTPS addresses only (plain HTTP to this machine aside), once per topic and address', async () => {
    const plain = await client.admin(SUBSCRIBE, { topic: 'ORDERS_CREATE', uri: 'http://gateway.example/webhooks' });
    expect(plain.body.data.webhookSubscriptionCreate).toEqual({
      webhookSubscription: null,
      userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address is invalid' }],
    });
    const secure = await client.admin(SUBSCRIBE, { topic: 'ORDERS_UPDATED', uri: 'https://gateway.example/webhooks' });
    expect(secure.body.data.webhookSubscriptionCreate.userErrors).toEqual([]);
    const twice = await client.admin(SUBSCRIBE, { topic: 'ORDERS_UPDATED', uri: 'https://gateway.example/webhooks' });
    expect(twice.body.data.webhookSubscriptionCreate.userErrors[0].message).toBe('Address for this topic has already been taken');
  });

  it('retries a failed delivery with the same payload and ids on an exponential schedule, until it is answered 2xx', async () => {
    await client.admin(SUBSCRIBE, { topic: 'ORDERS_CREATE', uri: receiverUrl });
    statuses.push(500, 503);
    received.length = 0;
    await placeOrder();
    expect(received).toHaveLength(1);
    const first = received[0]!;
    expect(first.headers['x-shopify-hmac-sha256']).toBe(
      createHmac('sha256', sim.credentials.clientSecret).update(first.body).digest('base64'),
    );

    expect(await sim.webhooks.retryDue()).toEqual([]); // not due yet
    now = sim.webhooks.nextRetryAt!;
    expect(now - Date.parse('2026-05-01T12:00:00Z')).toBe(56_250);
    const [retry1] = await sim.webhooks.retryDue();
    expect(retry1).toMatchObject({ attempt: 1, results: [{ status: 503 }] });
    const secondDue = sim.webhooks.nextRetryAt!;
    expect(secondDue - now).toBe(112_500); // doubling
    now = secondDue;
    const [retry2] = await sim.webhooks.retryDue();
    expect(retry2).toMatchObject({ attempt: 2, results: [{ status: 200 }] });
    expect(sim.webhooks.nextRetryAt).toBeUndefined();
    expect(received.map((r) => r.body)).toEqual([first.body, first.body, first.body]);
    for (const key of ['x-shopify-webhook-id', 'x-shopify-event-id', 'x-shopify-triggered-at'])
      expect(new Set(received.map((r) => r.headers[key])).size).toBe(1);
  });

  it('removes the subscription when the last of the 8 retries fails', async () => {
    statuses.length = 0;
    statuses.push(...Array(MAX_RETRIES + 1).fill(500));
    received.length = 0;
    await placeOrder();
    for (let i = 0; i < MAX_RETRIES; i++) {
      now = sim.webhooks.nextRetryAt!;
      await sim.webhooks.retryDue();
    }
    expect(received).toHaveLength(1 + MAX_RETRIES);
    expect(sim.webhooks.nextRetryAt).toBeUndefined();
    const left = await client.admin(
      `{ webhookSubscriptions(first: 10, topics: [ORDERS_CREATE]) { nodes { endpoint { ... on WebhookHttpEndpoint { callbackUrl } } } } }`,
    );
    expect(left.body.data.webhookSubscriptions.nodes).toEqual([]);
  });

  it('marks a duplicate delivery of one event with the same event id and a new webhook id', async () => {
    const original = sim.webhooks.deliveries.find((d) => d.topic === 'orders/create')!;
    const duplicate = await sim.webhooks.redeliver(original);
    expect(duplicate.headers['x-shopify-event-id']).toBe(original.headers['x-shopify-event-id']);
    expect(duplicate.headers['x-shopify-webhook-id']).not.toBe(original.headers['x-shopify-webhook-id']);
    expect(duplicate.body).toBe(original.body);
  });
});

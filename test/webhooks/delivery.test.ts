/**
 * Order webhooks end to end (spec part 2 §6.1): a completed order reaches a receiver run by the
 * test, signed so that an independent RFC 9421 implementation and the gateway's own verifier
 * accept it; failed deliveries are retried with the same Webhook-Id and body; one order's events
 * arrive in order; what cannot be delivered ends in the dead letters.
 */
import { createPublicKey } from 'node:crypto';
import { createVerifier, httpbis } from 'http-message-signatures';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OrderEventBody } from '../../schemas/order.js';
import { loadOrderRecord, saveOrderRecord } from '../../src/capabilities/order/order-record.js';
import { Keyring } from '../../src/security/keyring.js';
import { compile } from '../../schemas/validator.js';
import { createdEventId } from '../../src/capabilities/order/order-event.js';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { NOW, orderGateway, SIMULATION_SECRET, tenantKeyring, type OrderGateway } from '../helpers/order-gateway.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { sample, scrape } from '../ops/helpers/prometheus.js';
import { asMessage, bodyOf, businessProfile, verifyAsPlatform } from './platform-side.js';

const validEvent = compile(OrderEventBody);

let gw: OrderGateway;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(async () => {
  await gw?.close();
  receiver.received.length = 0;
  receiver.answer(200);
  await receiver.up();
});

const simulate = (orderId: string, action: string, body: object = {}) =>
  gw.app.inject({
    method: 'POST',
    url: `/simulate/orders/${orderId}/${action}`,
    headers: { authorization: `Bearer ${SIMULATION_SECRET}` },
    payload: body,
  });

/** Waits until the worker has recorded `count` attempts with `outcome`. */
async function attempts(outcome: 'delivered' | 'retried' | 'dead_lettered', count: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const seen = sample(await scrape(gw.app), 'proto_outbox_delivery_attempts_total', { queue: 'order-webhooks', outcome }) ?? 0;
      if (seen < count) throw new Error(`${seen} of ${count} ${outcome} attempts`);
    },
    { timeout: 15_000, interval: 10 },
  );
}

describe('a completed order', () => {
  it('produces an Order created webhook with the full order, signed so an independent verifier accepts it', async () => {
    gw = await orderGateway();
    const orderId = await gw.placeOrder({ checkoutId: 'chk_created', webhookUrl: receiver.url() });
    const [webhook] = await receiver.waitFor(1);

    expect(webhook!.method).toBe('POST');
    expect(webhook!.target).toBe('/hooks/orders?shop=flowers');
    expect(webhook!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': createdEventId('shop', orderId),
      'webhook-timestamp': String(NOW / 1000),
      'proto-agent': 'profile="https://shop.example/.well-known/proto"',
      // Platforms deduplicate with their usual machinery: the key is the event id.
      'idempotency-key': createdEventId('shop', orderId),
    });
    const body = bodyOf(webhook!);
    const checked = validEvent(body);
    expect(checked.ok, checked.ok ? '' : checked.message).toBe(true);
    expect(body).toMatchObject({
      proto: { version: '2026-04-08', capabilities: { 'dev.proto.shopping.order': [{ version: '2026-04-08' }] } },
      id: orderId,
      checkout_id: 'chk_created',
      currency: 'USD',
      event_id: webhook!.headers['webhook-id'],
      created_time: '2026-03-10T12:00:00.000Z',
      fulfillment: { events: [] },
      adjustments: [],
    });
    expect(body.line_items.map((l) => [l.id, l.quantity, l.status])).toEqual([
      ['l1', { original: 3, total: 3, fulfilled: 0 }, 'processing'],
      ['l2', { original: 2, total: 2, fulfilled: 0 }, 'processing'],
      ['l3', { original: 1, total: 1, fulfilled: 0 }, 'processing'],
    ]);
    expect(body.fulfillment.expectations.map((e) => e.method_type)).toEqual(['shipping', 'digital']);
    expect(body.permalink_url).toMatch(/^https:\/\/shop\.example\/order-status\/ord_[0-9a-f]{16}\?t=[\w-]{22}$/);

    // http-message-signatures (dhensby) verifies with the public key from the business profile.
    const { keys } = await businessProfile(gw, webhook!);
    const jwk = keys.find((k) => k.kid === gw.keyring.active!.kid)!;
    const verify = createVerifier(createPublicKey({ key: jwk, format: 'jwk' }), 'ecdsa-p256-sha256');
    const keyLookup = async ({ keyid }: { keyid?: string }) =>
      keyid === jwk.kid ? { id: keyid, algs: ['ecdsa-p256-sha256' as const], verify } : null;
    const required = [
      '@method',
      '@authority',
      '@path',
      '@query',
      'proto-agent',
      'idempotency-key',
      'content-type',
      'content-digest',
      'webhook-id',
      'webhook-timestamp',
    ];
    const theirs = { method: 'POST', url: receiver.url(webhook!.target), headers: webhook!.headers as Record<string, string> };
    await expect(httpbis.verifyMessage({ keyLookup, requiredFields: required, notAfter: NOW / 1000 + 1 }, theirs)).resolves.toBe(true);
    await expect(
      httpbis.verifyMessage(
        { keyLookup, notAfter: NOW / 1000 + 1 },
        { ...theirs, headers: { ...theirs.headers, 'webhook-id': 'evt_forged' } },
      ),
    ).resolves.toBe(false);
    await expect(
      httpbis.verifyMessage(
        { keyLookup, notAfter: NOW / 1000 + 1 },
        { ...theirs, headers: { ...theirs.headers, 'idempotency-key': 'evt_forged' } },
      ),
    ).resolves.toBe(false);

    // The gateway's own verifier, as a platform would run it, accepts it too.
    await expect(verifyAsPlatform(gw, receiver, webhook!, () => NOW)).resolves.toEqual([{ label: 'sig1', kid: gw.keyring.active!.kid }]);
  });

  it('is rejected when its body, a signed header or the signature is tampered with', async () => {
    gw = await orderGateway();
    await gw.placeOrder({ webhookUrl: receiver.url() });
    const [webhook] = await receiver.waitFor(1);
    const now = () => NOW;
    const message = asMessage(receiver, webhook!);
    const tampered = (change: Partial<typeof message>) => verifyAsPlatform(gw, receiver, webhook!, now, { ...message, ...change });
    const withHeader = (name: string, value: string) => tampered({ headers: { ...message.headers, [name]: value } });

    await expect(tampered({ body: webhook!.body.replace('"currency":"USD"', '"currency":"EUR"') })).rejects.toMatchObject({
      status: 400,
      code: 'digest_mismatch',
    });
    await expect(withHeader('webhook-id', 'evt_other')).rejects.toMatchObject({ status: 401, code: 'signature_invalid' });
    await expect(withHeader('webhook-timestamp', String(NOW / 1000 + 60))).rejects.toMatchObject({
      status: 401,
      code: 'signature_invalid',
    });
    await expect(withHeader('proto-agent', 'profile="https://evil.example/.well-known/proto"')).rejects.toMatchObject({
      status: 401,
      code: 'signature_invalid',
    });
    await expect(tampered({ path: '/hooks/other' })).rejects.toMatchObject({ status: 401, code: 'signature_invalid' });
    const signature = String(message.headers.signature);
    const flipped = signature.replace(/:(.)/, (_, c: string) => `:${c === 'A' ? 'B' : 'A'}`);
    await expect(withHeader('signature', flipped)).rejects.toMatchObject({ status: 401, code: 'signature_invalid' });
    // A signature by a key the business does not publish.
    const stranger = await tenantKeyring();
    const input = String(message.headers['signature-input']).replace(gw.keyring.active!.kid, stranger.active!.kid);
    await expect(withHeader('signature-input', input)).rejects.toMatchObject({ status: 401, code: 'key_not_found' });
    // Replayed long after the delivery: too old.
    await expect(verifyAsPlatform(gw, receiver, webhook!, () => NOW + 3_600_000)).rejects.toMatchObject({
      status: 401,
      code: 'signature_expired',
    });
  });

  it('is queued once however often checkout saves the order record, even twice at once', async () => {
    gw = await orderGateway();
    const record = await gw.placeInStore({ checkoutId: 'chk_twice', webhookUrl: receiver.url() });
    await Promise.all([saveOrderRecord(gw, record), saveOrderRecord(gw, record)]);
    expect(await loadOrderRecord(gw, record.orderId)).toEqual(record);
    await receiver.waitFor(1);
    await attempts('delivered', 1);
    // A checkout retry long after the delivery.
    await saveOrderRecord(gw, record);
    expect(await orderWebhookQueue(gw.store, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it('without a webhook URL in the platform profile is recorded but sends nothing', async () => {
    gw = await orderGateway();
    const orderId = await gw.placeOrder({ checkoutId: 'chk_quiet' });
    expect(await loadOrderRecord(gw, orderId)).toMatchObject({ orderId, checkoutId: 'chk_quiet' });
    expect((await simulate(orderId, 'ship')).json()).not.toHaveProperty('event_id');
    expect(await orderWebhookQueue(gw.store, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
  });
});

describe('retries', () => {
  it('a receiver that is down gets the event once it is back up, with the same Webhook-Id', async () => {
    gw = await orderGateway();
    await receiver.down();
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await attempts('retried', 1);
    await receiver.up();
    gw.advance(20_000); // the first wait of the schedule
    const [webhook] = await receiver.waitFor(1);
    expect(webhook!.headers['webhook-id']).toBe(createdEventId('shop', orderId));
    expect(bodyOf(webhook!).created_time).toBe('2026-03-10T12:00:00.000Z');
    await attempts('delivered', 1);
    await expect(verifyAsPlatform(gw, receiver, webhook!, () => gw.clock.now)).resolves.toHaveLength(1);
  });

  it('each retry sends the same Webhook-Id, timestamp and body bytes, freshly signed, until a 2xx', async () => {
    gw = await orderGateway();
    receiver.answer(503);
    await gw.placeOrder({ webhookUrl: receiver.url() });
    await receiver.waitFor(1);
    await attempts('retried', 1);
    receiver.answer(500);
    gw.advance(20_000);
    await receiver.waitFor(2);
    await attempts('retried', 2);
    receiver.answer(204);
    gw.advance(60_000);
    const [first, second, third] = await receiver.waitFor(3);
    await attempts('delivered', 1);
    for (const retry of [second!, third!]) {
      expect(retry.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(retry.headers['webhook-timestamp']).toBe(first!.headers['webhook-timestamp']);
      expect(retry.body).toBe(first!.body);
    }
    expect(new Set([first, second, third].map((w) => w!.headers['signature-input'])).size).toBe(3);
    await expect(verifyAsPlatform(gw, receiver, third!, () => gw.clock.now)).resolves.toHaveLength(1);
  });

  it('does not follow a redirect: a 3xx is a failed attempt and the other address hears nothing', async () => {
    const elsewhere = await startReceiver();
    try {
      gw = await orderGateway();
      receiver.answer(307);
      await gw.placeOrder({ webhookUrl: receiver.url() });
      await attempts('retried', 1);
      expect(receiver.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('gives up after the last attempt: the event is dead-lettered and later events of the order still go out', async () => {
    gw = await orderGateway({ webhooks: { schedule: { maxAttempts: 2, delayMs: () => 1000 } } });
    receiver.answer(500);
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await attempts('retried', 1);
    gw.advance(1000);
    await attempts('dead_lettered', 1);
    const [dead] = await orderWebhookQueue(gw.store, 'shop').listDead();
    expect(dead).toMatchObject({ id: createdEventId('shop', orderId), attempts: 2, reason: 'HTTP 500' });

    receiver.answer(200);
    await simulate(orderId, 'ship');
    const webhooks = await receiver.waitFor(3);
    expect(bodyOf(webhooks[2]!).line_items.map((l) => l.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
  });

  it('dead-letters at once what no retry can fix: a webhook URL that is not https, a tenant without a signing key', async () => {
    gw = await orderGateway();
    const insecure = await gw.placeOrder({ webhookUrl: 'http://platform.example/hooks' });
    await attempts('dead_lettered', 1);
    expect(await orderWebhookQueue(gw.store, 'shop').listDead()).toEqual([
      expect.objectContaining({ group: `shop:${insecure}`, attempts: 1, reason: 'the webhook URL must use https' }),
    ]);
    await gw.close();

    gw = await orderGateway({ keyring: Keyring.none });
    await gw.placeOrder({ webhookUrl: receiver.url() });
    await attempts('dead_lettered', 1);
    expect((await orderWebhookQueue(gw.store, 'shop').listDead())[0]!.reason).toBe(
      'tenant shop has no signing key, and order webhooks must be signed',
    );
    expect(receiver.received).toHaveLength(0);
  });
});

describe('order of events', () => {
  it("delivers one order's events in the order they happened, even when the first needs retries", async () => {
    gw = await orderGateway();
    receiver.answer(503);
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await attempts('retried', 1);
    // Changes within the 20 s before the created event's retry: they queue up behind it.
    gw.advance(5000);
    expect((await simulate(orderId, 'ship', { lines: [{ id: 'l1', quantity: 1 }] })).statusCode).toBe(200);
    gw.advance(5000);
    expect((await simulate(orderId, 'ship')).statusCode).toBe(200);
    gw.advance(5000);
    expect((await simulate(orderId, 'deliver')).statusCode).toBe(200);
    expect(receiver.received).toHaveLength(1);

    receiver.answer(200);
    gw.advance(5000);
    const webhooks = (await receiver.waitFor(5)).slice(1);
    const statuses = webhooks.map((w) =>
      bodyOf(w)
        .line_items.map((l) => l.status)
        .join(','),
    );
    expect(statuses).toEqual([
      'processing,processing,processing',
      'partial,processing,processing',
      'fulfilled,fulfilled,fulfilled',
      'fulfilled,fulfilled,fulfilled',
    ]);
    expect(webhooks.map((w) => bodyOf(w).fulfillment.events.length)).toEqual([0, 1, 2, 3]);
    expect(new Set(webhooks.map((w) => w.headers['webhook-id'])).size).toBe(4);
    const times = webhooks.map((w) => Number(w.headers['webhook-timestamp']));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

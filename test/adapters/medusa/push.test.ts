/**
 * Push delivery against the real Medusa server of this run: the store runs the gateway's
 * subscriber (examples/medusa-store/src/subscribers/proto-gateway-webhook.js), started by the
 * global setup with PROTO_WEBHOOK_URL on a port it reserved and a random PROTO_WEBHOOK_SECRET
 * (test/helpers/medusa-global.ts). This file's gateway listens on that port with the same secret
 * as the tenant's webhook_secret, and its order poll is a day away (and never drained here): a
 * change the merchant makes in Medusa's Admin API reaches the platform only by push.
 */
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { MedusaAdapter } from '../../../adapters/medusa/index.js';
import { operations } from '../../../src/pipeline/table.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { backoffSchedule } from '../../../src/state/retry-schedule.js';
import { baseTenantConfig, testGateway, type TestGateway } from '../../helpers/gateway.js';
import { medusaCall, medusaSettings, medusaStore, shipOnMedusa } from '../../helpers/medusa-store.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { protocolCaller, type Reply } from '../../helpers/protocol-client.js';
import { startReceiver, WEBHOOK_PATH, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const store = medusaStore();
const push = inject('medusaStore').push;
const API_KEY = 'pk_medusa_push_8Tn3Vb6Rq1';
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};
const BUYER = { email: 'push@example.com', first_name: 'Ann', last_name: 'Lee' };
const DAY = 86_400;
/** The merchant's set-up check (`medusa exec ./src/scripts/proto-webhook-ping.js`), its default export. */
const pingScript = (
  createRequire(import.meta.url)('../../../examples/medusa-store/src/scripts/proto-webhook-ping.js') as {
    default: (args: { container: { resolve(name: string): unknown } }) => Promise<void>;
  }
).default;

const suite = store && push ? describe : describe.skip;

suite('push delivery from the Medusa subscriber, against the real Medusa server', () => {
  let gw: TestGateway;
  let platform: PlatformServer;
  let receiver: WebhookReceiver;
  const webhookUrl = `http://127.0.0.1:${push?.port}/webhooks/backend`;

  beforeAll(async () => {
    receiver = await startReceiver();
    const profile = platformProfile();
    profile.proto.capabilities['dev.proto.shopping.order'] = [
      { version: '2026-04-08', config: { webhook_url: receiver.url(WEBHOOK_PATH) } } as { version: string },
    ];
    platform = await startPlatform(profile);
    const state = new MemoryStore();
    const adapter = await MedusaAdapter.create({
      settings: medusaSettings(store!),
      publishableKey: store!.seed.publishableKey,
      secretKey: store!.seed.secretKey,
      webhookSecret: push!.secret,
      store: state,
      tenantId: 'medusa-push',
    });
    gw = await testGateway({
      platform,
      store: state,
      keyring: await tenantKeyring(),
      adapter,
      tenant: {
        ...baseTenantConfig,
        adapter: { type: 'medusa', settings: medusaSettings(store!), finishing: 'store_charged', order_poll_seconds: DAY },
        payment_handlers: [{ id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store', instruments: ['card'] }],
        policies: { ...baseTenantConfig.policies, backend: { timeout_ms: 30_000 } },
        auth: { api_keys: [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }] },
      },
      webhooks: { pollMs: 10, schedule: backoffSchedule({ maxAttempts: 5, firstDelayMs: 10, maxDelayMs: 50, factor: 2, jitter: 0 }) },
    });
    await gw.app.listen({ port: push!.port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
    await platform?.close();
  });

  const call = async (name: string, body?: unknown, id?: string): Promise<Reply> => {
    const { rest } = protocolCaller(gw, () => undefined);
    const op = operations.find((o) => o.name === name)!;
    const path = op.rest.path.replace('{id}', encodeURIComponent(id ?? ''));
    return rest(op.rest.method, path, op.rest.method === 'GET' ? undefined : (body ?? {}), { headers: { 'x-api-key': API_KEY } });
  };

  /** A store_charged order through the gateway (one bouquet, standard shipping): its id and checkout id. */
  async function placeOrder(): Promise<{ orderId: string; checkoutId: string }> {
    const { id, completed } = await completeWith('ok');
    expect(completed.body.status).toBe('completed');
    return { orderId: completed.body.order.id as string, checkoutId: id };
  }

  /** A ready checkout (one bouquet, standard shipping) completed with a card token: the checkout's id, lines and answer. */
  async function completeWith(token: string): Promise<{ id: string; lineIds: string[]; completed: Reply }> {
    const lines = [{ item: { id: store!.seed.variants.bouquet_roses! }, quantity: 1 }];
    const created = await call('create_checkout', { line_items: lines, buyer: BUYER });
    const id = created.body.id as string;
    const lineItems = created.body.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const shipping = { methods: [{ type: 'shipping', destinations: [ADDRESS] }] };
    const withAddress = await call('update_checkout', { line_items: lineItems, buyer: BUYER, fulfillment: shipping }, id);
    const method = withAddress.body.fulfillment.methods[0];
    const chosen = {
      id: method.id,
      type: 'shipping',
      destinations: method.destinations,
      selected_destination_id: method.selected_destination_id,
      groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: g.options[0].id })),
    };
    const ready = await call('update_checkout', { line_items: lineItems, buyer: BUYER, fulfillment: { methods: [chosen] } }, id);
    expect(ready.body.status).toBe('ready_for_complete');
    const instrument = {
      id: 'i1',
      handler_id: 'store_card',
      type: 'card',
      selected: true,
      credential: { type: 'PAYMENT_GATEWAY', token },
    };
    const completed = await call('complete_checkout', { payment: { instruments: [instrument] } }, id);
    return { id, lineIds: lineItems.map((l: { id: string }) => l.id), completed };
  }

  /** The platform's order webhooks about `orderId` (any order: ''), parsed, once one satisfies `wanted`. */
  async function hookAbout(orderId: string, wanted: (order: any) => boolean, timeout = 30_000): Promise<any> {
    let found: any;
    await vi.waitFor(
      () => {
        found = receiver.received.map((r) => JSON.parse(r.body)).find((o) => (!orderId || o.id === orderId) && wanted(o));
        if (!found) throw new Error(`no webhook of ${orderId} shows the change yet (${receiver.received.length} received)`);
      },
      { timeout, interval: 50 },
    );
    return found;
  }

  /** The backend webhooks the gateway took for `orderId`, by Medusa event name. */
  const pushedTopics = (orderId: string) =>
    gw.logs.filter((l) => l.msg === 'backend webhook' && l.order === orderId).map((l) => l.topic as string);

  it('a fulfillment and shipment made in Medusa reach the platform and the order by push, not by poll', async () => {
    const { orderId, checkoutId } = await placeOrder();
    await shipOnMedusa(store!, orderId);

    const shipped = await hookAbout(orderId, (o) => o.fulfillment?.events?.some((e: any) => e.type === 'shipped'));
    expect(shipped.checkout_id).toBe(checkoutId);
    expect(shipped.fulfillment.events).toContainEqual(expect.objectContaining({ type: 'shipped', tracking_number: '1Z999AA10123456784' }));
    expect(pushedTopics(orderId)).toEqual(expect.arrayContaining(['order.fulfillment_created', 'shipment.created']));
    // No poll ran: the tenant polls once a day, and this gateway's queue is never drained here.
    expect(gw.logs.some((l) => typeof l.msg === 'string' && /order poll/i.test(l.msg))).toBe(false);

    const order = await call('get_order', undefined, orderId);
    expect(order.body.fulfillment.events).toContainEqual(
      expect.objectContaining({ type: 'shipped', tracking_number: '1Z999AA10123456784' }),
    );
  });

  it('an order canceled in Medusa reaches the platform as canceled by push', async () => {
    const { orderId } = await placeOrder();
    await medusaCall(store!, 'admin', 'POST', `/admin/orders/${orderId}/cancel`);

    const canceled = await hookAbout(orderId, (o) => o.messages?.some((m: any) => m.code === 'order_canceled'));
    expect(canceled.id).toBe(orderId);
    expect(pushedTopics(orderId)).toContain('order.canceled');
  });

  it('a refund made in Medusa reaches the platform by push (the subscriber finds the order of the payment)', async () => {
    const { orderId } = await placeOrder();
    const { order } = await medusaCall(store!, 'admin', 'GET', `/admin/orders/${orderId}?fields=id,*payment_collections.payments`);
    const payment = order.payment_collections[0].payments[0] as { id: string };
    await medusaCall(store!, 'admin', 'POST', `/admin/payments/${payment.id}/refund`, { amount: 10 });

    const refunded = await hookAbout(orderId, (o) => o.adjustments?.some((a: any) => a.type === 'refund'));
    expect(refunded.adjustments).toContainEqual(expect.objectContaining({ type: 'refund', totals: [{ type: 'total', amount: -1000 }] }));
    expect(pushedTopics(orderId)).toContain('payment.refunded');
  });

  it(
    "a card the issuer challenges: the buyer approves on the issuer's page, Medusa completes the cart, its push completes the checkout",
    { timeout: 90_000 },
    async () => {
      const { id, lineIds, completed } = await completeWith('action_token');
      expect(completed.body.status).toBe('requires_escalation');
      expect(completed.body.continue_url).toMatch(new RegExp(`^${store!.url}/test-card/authenticate/pi_`));
      expect(completed.body.messages.map((m: any) => [m.code, m.severity])).toEqual([['buyer_action_required', 'requires_buyer_input']]);

      // The buyer on the issuer's page: Stripe's webhook to Medusa, which completes the cart; the order's push reaches the gateway.
      const approved = await fetch(completed.body.continue_url, { method: 'POST', body: new URLSearchParams({ outcome: 'approve' }) });
      expect(approved.status).toBe(200);
      const created = await hookAbout('', (o) => o.checkout_id === id, 60_000);
      const done = (await call('get_checkout', undefined, id)).body;
      expect([done.status, done.order.id]).toEqual(['completed', created.id]);
      expect(pushedTopics(created.id)).toContain('order.placed');
      // The order's lines are the checkout's; a repeated complete answers the same order and charges nothing.
      expect((await call('get_order', undefined, created.id)).body.line_items.map((l: any) => l.id)).toEqual(lineIds);
      const instrument = {
        id: 'i1',
        handler_id: 'store_card',
        type: 'card',
        selected: true,
        credential: { type: 'PAYMENT_GATEWAY', token: 'ok' },
      };
      const repeated = (await call('complete_checkout', { payment: { instruments: [instrument] } }, id)).body;
      expect([repeated.messages.map((m: any) => m.code), repeated.order.id]).toEqual([['checkout_completed'], created.id]);
      const { orders } = await medusaCall(store!, 'admin', 'GET', '/admin/orders?fields=id,metadata,payment_status&limit=500');
      const mine = orders.filter((o: any) => o.metadata?.gateway_reference === id);
      expect(mine.map((o: any) => [o.id, o.payment_status])).toEqual([[created.id, 'captured']]);
    },
  );

  it('refuses, over HTTP, a delivery signed with another secret or too old, and changes nothing', async () => {
    const { orderId } = await placeOrder();
    const body = JSON.stringify({
      id: `forged-${orderId}`,
      type: 'order.canceled',
      order_id: orderId,
      created_at: new Date().toISOString(),
    });
    const send = (secret: string, t: number) =>
      fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'proto-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
        },
        body,
      });
    const now = Math.floor(Date.now() / 1000);
    for (const response of [await send('not-the-secret', now), await send(push!.secret, now - 3600)]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'webhook_unverified' });
    }
    const garbage = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":' });
    expect(garbage.status).toBe(401);
    expect(pushedTopics(orderId)).not.toContain('order.canceled');
    // The same body signed with the tenant's secret now is taken: the refusals were about the signature.
    const taken = await send(push!.secret, now);
    expect(taken.status).toBe(200);
    expect(pushedTopics(orderId)).toContain('order.canceled');
  });

  it("the merchant's set-up check gets a verified ping through, and names a wrong secret's refusal", async () => {
    const lines: string[] = [];
    const logger = { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) };
    const container = { resolve: () => logger };
    vi.stubEnv('PROTO_WEBHOOK_URL', webhookUrl);
    vi.stubEnv('PROTO_WEBHOOK_SECRET', push!.secret);
    try {
      await pingScript({ container });
      expect(lines.at(-1)).toMatch(/verified a signed ping/);
      expect(gw.logs.some((l) => l.msg === 'backend webhook: ping')).toBe(true);
      vi.stubEnv('PROTO_WEBHOOK_SECRET', 'not-the-secret');
      await expect(pingScript({ container })).rejects.toThrow(/did not take the ping/);
      expect(lines.at(-1)).toMatch(/answered 401/);
      expect(lines.join('\n')).not.toContain(push!.secret);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

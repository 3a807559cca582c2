/**
 * The whole walk through a Medusa tenant against the real Medusa server of this run: search, a
 * cart with 10OFF, a checkout with Medusa's shipping options, completion (store_charged: Medusa
 * authorizes the buyer's card token with the store's payment provider and completes its cart),
 * the order read back from the Admin API with the totals the agent agreed to, and a fulfillment
 * the merchant creates in Medusa's Admin API reaching the platform as a signed order webhook,
 * found by the gateway's order poll (Medusa sends no webhooks).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../../src/pipeline/table.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { backoffSchedule } from '../../../src/state/retry-schedule.js';
import { baseTenantConfig, testGateway, type TestGateway } from '../../helpers/gateway.js';
import { medusaAdapter, medusaCall, medusaSettings, medusaStore, shipOnMedusa } from '../../helpers/medusa-store.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { protocolCaller, type Reply } from '../../helpers/protocol-client.js';
import { startReceiver, WEBHOOK_PATH, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const store = medusaStore();
const API_KEY = 'pk_medusa_platform_3Fz8Qw1Lp6';
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};
const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };

const suite = store ? describe : describe.skip;

suite('a Medusa tenant, from search to a shipped order, against the real Medusa server', () => {
  let gw: TestGateway;
  let platform: PlatformServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    const profile = platformProfile();
    profile.proto.capabilities['dev.proto.shopping.order'] = [
      { version: '2026-04-08', config: { webhook_url: receiver.url(WEBHOOK_PATH) } } as { version: string },
    ];
    platform = await startPlatform(profile);
    const state = new MemoryStore();
    gw = await testGateway({
      platform,
      store: state,
      keyring: await tenantKeyring(),
      adapter: await medusaAdapter(store!, { state }),
      tenant: {
        ...baseTenantConfig,
        adapter: { type: 'medusa', settings: medusaSettings(store!), finishing: 'store_charged', order_poll_seconds: 60 },
        payment_handlers: [{ id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store', instruments: ['card'] }],
        // A shared 2-core machine runs this: Medusa's completion (several workflows) gets room.
        policies: { ...baseTenantConfig.policies, backend: { timeout_ms: 30_000 } },
        auth: { api_keys: [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }] },
      },
      webhooks: { pollMs: 10, schedule: backoffSchedule({ maxAttempts: 5, firstDelayMs: 10, maxDelayMs: 50, factor: 2, jitter: 0 }) },
    });
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
  const amount = (reply: Reply, type: string) => reply.body.totals.find((t: any) => t.type === type)?.amount as number | undefined;

  it('search, a cart with 10OFF, checkout with shipping, completion, the order, and the fulfillment reaching the platform', async () => {
    const roses = store!.seed.variants.bouquet_roses!;
    const search = await call('search_catalog', { query: 'roses' });
    expect(search.body.proto.status).toBe('success');
    expect(search.body.products.map((p: any) => p.id)).toContain(store!.seed.products.bouquet_roses);

    const cart = await call('create_cart', { line_items: [{ item: { id: roses }, quantity: 2 }], discounts: { codes: ['10OFF', 'NOPE'] } });
    expect(amount(cart, 'subtotal')).toBe(7000);
    expect(amount(cart, 'items_discount')).toBe(-700);
    expect(cart.body.messages.map((m: any) => m.code)).toContain('discount_code_invalid');

    const lines = [{ item: { id: roses }, quantity: 2 }];
    const created = await call('create_checkout', { line_items: lines, buyer: BUYER, discounts: { codes: ['10OFF'] } });
    const id = created.body.id as string;
    const lineItems = created.body.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const withAddress = await call(
      'update_checkout',
      {
        line_items: lineItems,
        buyer: BUYER,
        discounts: { codes: ['10OFF'] },
        fulfillment: { methods: [{ type: 'shipping', destinations: [ADDRESS] }] },
      },
      id,
    );
    const method = withAddress.body.fulfillment.methods[0];
    const options = method.groups[0].options as Array<{ id: string; title: string; totals: unknown }>;
    expect(options.map((o) => o.title)).toEqual(['Standard Shipping', 'Express Shipping']);
    const chosen = {
      id: method.id,
      type: 'shipping',
      destinations: method.destinations,
      selected_destination_id: method.selected_destination_id,
      groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: options[0]!.id })),
    };
    const ready = await call(
      'update_checkout',
      { line_items: lineItems, buyer: BUYER, discounts: { codes: ['10OFF'] }, fulfillment: { methods: [chosen] } },
      id,
    );
    expect(ready.body.status).toBe('ready_for_complete');
    expect([amount(ready, 'subtotal'), amount(ready, 'items_discount'), amount(ready, 'fulfillment'), amount(ready, 'total')]).toEqual([
      7000, -700, 500, 6800,
    ]);

    const instrument = {
      id: 'i1',
      handler_id: 'store_card',
      type: 'card',
      selected: true,
      credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
    };
    const completed = await call('complete_checkout', { payment: { instruments: [instrument] } }, id);
    expect(completed.body.status).toBe('completed');
    const orderId = completed.body.order.id as string;
    // Completing again answers the same order: Medusa completes a cart once.
    expect((await call('complete_checkout', { payment: { instruments: [instrument] } }, id)).body.order.id).toBe(orderId);

    // What Medusa recorded is what the agent agreed to.
    const { order: recorded } = await medusaCall(store!, 'admin', 'GET', `/admin/orders/${orderId}?fields=id,total,metadata,email`);
    expect([Math.round(recorded.total * 100), recorded.metadata.gateway_reference, recorded.email]).toEqual([6800, id, BUYER.email]);

    const [createdHook] = await receiver.waitFor(1);
    expect(JSON.parse(createdHook!.body)).toMatchObject({ id: orderId, checkout_id: id });
    const order = await call('get_order', undefined, orderId);
    expect(order.body).toMatchObject({ id: orderId, checkout_id: id });
    expect(amount(order, 'total')).toBe(6800);
    expect(order.body.line_items.map((l: any) => l.id)).toEqual(created.body.line_items.map((l: any) => l.id));

    // The merchant fulfils and ships in Medusa's Admin API; the gateway's poll finds the change.
    await shipOnMedusa(store!, orderId);
    // The poll of the slot the gateway started in has not run yet (jobs run when drained here).
    await gw.app.orderPolls.drain();
    const hooks = await receiver.waitFor(2);
    const update = JSON.parse(hooks.at(-1)!.body);
    expect(update.id).toBe(orderId);
    expect(update.fulfillment.events).toContainEqual(expect.objectContaining({ type: 'shipped', tracking_number: '1Z999AA10123456784' }));
  });
});

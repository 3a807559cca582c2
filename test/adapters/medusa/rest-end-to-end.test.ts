/**
 * The whole walk through the Medusa tenant of examples/rest-tenants (the generic REST adapter and
 * mappings, no Medusa code in the gateway) against the real Medusa server of this run, in each
 * finishing mode: search, a cart with 10OFF and a refused code, a checkout with Medusa's shipping
 * options, completion (store_charged: Medusa authorizes the card token with the store's provider;
 * gateway_charged: the sandbox charges, Medusa records the payment captured; handoff: the buyer
 * pays on the storefront), the order read back with the totals the agent agreed to, and a shipment
 * the merchant makes in Medusa's Admin API reaching the platform through the gateway's order poll.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FINISHING_MODES, type FinishingMode } from '../../../adapters/contract.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { operations } from '../../../src/pipeline/table.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { backoffSchedule } from '../../../src/state/retry-schedule.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { medusaRestAdapter, medusaRestTenant } from '../../helpers/medusa-rest.js';
import { medusaCall, medusaStore, shipOnMedusa } from '../../helpers/medusa-store.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { protocolCaller, type Reply } from '../../helpers/protocol-client.js';
import { startReceiver, WEBHOOK_PATH, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { payOnStorefront } from './storefront.js';

const store = medusaStore();
const API_KEY = 'pk_medusa_rest_platform_8Kd3Rt5Wn2';
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

/** The tenant's payment handlers in each mode (the example file lists the store's card handler). */
const HANDLERS: Record<FinishingMode, TenantConfig['payment_handlers']> = {
  gateway_charged: [{ id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox', instruments: ['card'] }],
  store_charged: [{ id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store', instruments: ['card'] }],
  handoff: [],
};

const suite = store ? describe.each(FINISHING_MODES) : describe.skip.each(FINISHING_MODES);

suite('Medusa through the REST adapter, from search to a shipped order: %s', (mode) => {
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
    const tenant = medusaRestTenant(store!.url);
    gw = await testGateway({
      platform,
      store: new MemoryStore(),
      keyring: await tenantKeyring(),
      adapter: await medusaRestAdapter(store!),
      tenant: {
        ...tenant,
        path_prefix: undefined,
        // Polled every 5 s: a handed-off order and then its shipment are two polls apart.
        adapter: { ...tenant.adapter, finishing: mode, order_poll_seconds: 5 },
        payment_handlers: HANDLERS[mode],
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

  // Some 40 Medusa calls and two order polls: room for a loaded machine.
  it(
    'search, a cart with 10OFF, checkout with shipping, completion, the order, and the shipment reaching the platform',
    { timeout: 300_000 },
    async () => {
      const roses = store!.seed.variants.bouquet_roses!;
      const search = await call('search_catalog', { query: 'roses' });
      expect(search.body.proto.status).toBe('success');
      expect(search.body.products.map((p: any) => p.id)).toContain(store!.seed.products.bouquet_roses);

      const cart = await call('create_cart', {
        line_items: [{ item: { id: roses }, quantity: 2 }],
        discounts: { codes: ['10OFF', 'NOPE'] },
      });
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
      const options = method.groups[0].options as Array<{ id: string; title: string }>;
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

      const handler = HANDLERS[mode]?.[0]?.id;
      const instrument = handler && {
        id: 'i1',
        handler_id: handler,
        type: 'card',
        selected: true,
        credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
      };
      const payment = instrument ? { payment: { instruments: [instrument] } } : {};
      const completed = await call('complete_checkout', payment, id);
      let orderId: string;
      if (mode === 'handoff') {
        expect(completed.body.status).toBe('requires_escalation');
        const cartId = new URL(completed.body.continue_url as string).searchParams.get('cart_id')!;
        orderId = await payOnStorefront(
          store!,
          cartId,
          { streetAddress: '123 Main St', locality: 'Chicago', region: 'IL', postalCode: '60601', country: 'US' },
          BUYER,
        );
        // The storefront's order reaches the gateway through its order poll.
        await gw.app.orderPolls.drain();
      } else {
        expect(completed.body.status).toBe('completed');
        orderId = completed.body.order.id as string;
        // Completing again answers the same order: Medusa completes a cart once.
        expect((await call('complete_checkout', payment, id)).body.order.id).toBe(orderId);
      }

      // What Medusa recorded is what the agent agreed to, tagged with the checkout.
      const { order: recorded } = await medusaCall(store!, 'admin', 'GET', `/admin/orders/${orderId}?fields=id,total,metadata,email`);
      expect([Math.round(recorded.total * 100), recorded.metadata.gateway_reference]).toEqual([6800, id]);

      const [createdHook] = await receiver.waitFor(1);
      expect(JSON.parse(createdHook!.body)).toMatchObject({ id: orderId, checkout_id: id });
      const order = await call('get_order', undefined, orderId);
      expect(order.body).toMatchObject({ id: orderId, checkout_id: id });
      expect(amount(order, 'total')).toBe(6800);

      await shipOnMedusa(store!, orderId);
      await vi.waitFor(
        async () => {
          await gw.app.orderPolls.drain();
          if (receiver.received.length < 2) throw new Error('the shipment has not reached the platform yet');
        },
        { timeout: 30_000, interval: 500 },
      );
      const hooks = receiver.received;
      const update = JSON.parse(hooks.at(-1)!.body);
      expect(update.id).toBe(orderId);
      expect(update.fulfillment.events).toContainEqual(expect.objectContaining({ type: 'shipped', tracking_number: '1Z999AA10123456784' }));
    },
  );
});

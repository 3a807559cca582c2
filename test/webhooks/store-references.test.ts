/**
 * A store that knows orders only by its own references (the demo store with `order_links:
 * [store_reference]`): it keeps no gateway reference with its orders, webhooks or changes, and
 * names instead the store-side object an order will come from (the cart of its checkout page, the
 * payment its buyer confirms). The gateway links the order the store reports by that reference,
 * webhook or poll, completes the checkout and sends the platform its `order created`. A store
 * that keeps neither fails at start-up; one that names no store reference where it keeps no
 * reference is a backend answer the gateway cannot use (503), never a silently lost order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter, OrderLinks, PlaceOrderRequest } from '../../adapters/contract.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { memory } from '../../adapters/memory/definition.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { checkoutGateway, line, pay, walkToReady, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { platformProfile } from '../helpers/platform.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const WEBHOOK_SECRET = 'demo-store-webhook-secret-for-tests';
const PROFILE = '/profiles/store-reference-agent';
const ADDRESS = { streetAddress: '123 Main St', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60601' };
const STORE_HANDLER = { id: 'store-card', name: 'dev.proto.payments.store_card', type: 'store' as const, instruments: ['card'] };

type Finishing = 'handoff' | 'store_charged';

async function storeRefGateway(receiver: WebhookReceiver, finishing: Finishing, webhookSecret?: string): Promise<CheckoutGateway> {
  const gw = await checkoutGateway({
    tenant: { adapter: { type: 'memory', settings: {}, finishing }, payment_handlers: finishing === 'handoff' ? [] : [STORE_HANDLER] },
    demo: { orderLinks: ['store_reference'] },
    ...(webhookSecret && { webhookSecret }),
    gateway: { webhooks: { pollMs: 5 }, keyring: await tenantKeyring() },
  });
  const profile = platformProfile();
  profile.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: receiver.url() } } as { version: string },
  ];
  gw.platform.serve(PROFILE, profile);
  return gw;
}

const backendWebhook = (gw: CheckoutGateway, delivery: { headers: Record<string, string>; body: Buffer }) =>
  gw.app.inject({ method: 'POST', url: '/webhooks/backend', headers: delivery.headers, payload: delivery.body });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('a handed-off checkout at a store that keeps only its own references', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await storeRefGateway(receiver, 'handoff', WEBHOOK_SECRET);
  });
  afterAll(() => gw.close());

  it("the store's page names its cart; the order it reports by that cart completes the checkout, with order created", async () => {
    receiver.received.length = 0;
    const rest = gw.client('rest', PROFILE);
    const { ready } = await walkToReady(rest, [line('bouquet_roses', 2)]);
    const escalated = (await rest.complete(ready.id, {})).body;
    expect(escalated.continue_url).toMatch(/\?cart=cart_[0-9a-f]{16}$/);
    expect(escalated.continue_url).not.toContain(ready.id);

    const { orderId } = await gw.demo.purchase(escalated.continue_url, ADDRESS, { email: 'ann@example.com' });
    const delivery = (await gw.demo.webhookFor('order.created', orderId))!;
    expect(JSON.parse(delivery.body.toString())).toEqual({ order_id: orderId, store_reference: expect.stringMatching(/^cart_/) });
    expect((await backendWebhook(gw, delivery)).json()).toEqual({ status: 'created' });

    expect((await rest.get(ready.id)).body.order.id).toBe(orderId);
    const [webhook] = await receiver.waitFor(1);
    expect(JSON.parse(webhook!.body)).toMatchObject({ id: orderId, checkout_id: ready.id });
  });
});

describe('a challenged payment at a store that keeps only its own references, without webhooks', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await storeRefGateway(receiver, 'store_charged');
  });
  afterAll(() => gw.close());

  it('the order poll links the approved payment to its checkout, not its reference', async () => {
    receiver.received.length = 0;
    const rest = gw.client('rest', PROFILE);
    const { ready } = await walkToReady(rest, [line('bouquet_roses', 2)]);
    const escalated = (await rest.complete(ready.id, pay('action_required_token', { handler_id: STORE_HANDLER.id }))).body;
    expect(escalated.status).toBe('requires_escalation');
    const { orderId } = (await gw.demo.confirmPayment(escalated.continue_url, 'approve'))!;
    // The store cannot be asked by the gateway's reference, only by its payment.
    expect(await gw.demo.findOrderByReference(ready.id)).toBeNull();

    await gw.app.orderPolls.drain();
    expect((await rest.get(ready.id)).body.order.id).toBe(orderId);
    const [webhook] = await receiver.waitFor(1);
    expect(JSON.parse(webhook!.body)).toMatchObject({ id: orderId, checkout_id: ready.id });
  });

  it('approved and not polled yet: a complete finds the order by the payment and completes with it', async () => {
    const rest = gw.client('rest', PROFILE);
    const { ready } = await walkToReady(rest, [line('pot_ceramic', 1)]);
    const escalated = (await rest.complete(ready.id, pay('action_required_token', { handler_id: STORE_HANDLER.id }))).body;
    const { orderId } = (await gw.demo.confirmPayment(escalated.continue_url, 'approve'))!;
    const done = (await rest.complete(ready.id, pay('success_token', { handler_id: STORE_HANDLER.id }))).body;
    expect([done.status, done.order.id]).toEqual(['completed', orderId]);
  });
});

describe('a placement the store leaves pending, naming its own reference', () => {
  it('the recovery job finds the order by that reference and completes the checkout', async () => {
    const asked: Array<OrderLinks | undefined> = [];
    const pendingWithReference = (adapter: Adapter): Adapter =>
      Object.assign(Object.create(adapter) as Adapter, {
        async placeOrder(request: PlaceOrderRequest) {
          await adapter.placeOrder(request);
          return { status: 'pending' as const, storeReference: 'store-order-ref-1' };
        },
        async findOrderByReference(reference: string, signal?: AbortSignal, links?: OrderLinks) {
          asked.push(links);
          return links?.storeReference === 'store-order-ref-1' ? adapter.findOrderByReference(reference, signal) : null;
        },
      });
    const gw = await checkoutGateway({ wrapAdapter: pendingWithReference });
    try {
      const rest = gw.client('rest');
      const { ready } = await walkToReady(rest, [line('bouquet_roses', 1)]);
      expect((await rest.complete(ready.id, pay())).body.status).toBe('complete_in_progress');
      await gw.app.completions.drain();
      expect((await rest.get(ready.id)).body.status).toBe('completed');
      expect(asked).toContainEqual({ storeReference: 'store-order-ref-1' });
    } finally {
      await gw.close();
    }
  });
});

describe('a store that keeps no reference and names none', () => {
  it('a checkout page without a store reference is an answer the gateway cannot use: 503, nothing handed off', async () => {
    const noStoreReference = (adapter: Adapter): Adapter =>
      Object.assign(Object.create(adapter) as Adapter, {
        checkoutUrl: async (...args: Parameters<Adapter['checkoutUrl']>) => ({ url: (await adapter.checkoutUrl(...args)).url }),
      });
    const gw = await checkoutGateway({
      tenant: { adapter: { type: 'memory', settings: {}, finishing: 'handoff' }, payment_handlers: [] },
      demo: { orderLinks: ['store_reference'] },
      wrapAdapter: noStoreReference,
    });
    try {
      const rest = gw.client('rest');
      const { ready } = await walkToReady(rest, [line('bouquet_roses', 1)]);
      const answer = await rest.complete(ready.id, {});
      expect([answer.status, answer.body.code]).toEqual([503, 'backend_invalid_response']);
    } finally {
      await gw.close();
    }
  });

  it('fails at start-up, naming the file and the setting', async () => {
    const store = new MemoryStore();
    const context = {
      credentials: {},
      baseDir: 'config/tenants',
      where: 'config/tenants/demo.yaml',
      now: Date.now,
      store,
      tenantId: 'demo',
    };
    const settings = { data_dir: '../demo', storefront_url: 'https://flowers.example/store', order_links: [] };
    await expect(async () => memory.create(settings, {}, context)).rejects.toThrow(
      new ConfigError(
        "config/tenants/demo.yaml: $.adapter.settings.order_links is empty: the store would keep neither the gateway's reference " +
          'nor a reference of its own with its orders, so no order placed on its pages could be matched to its checkout',
      ),
    );
    await store.close();
  });

  it('an adapter declaring no way to link orders fails the tenant at start-up', async () => {
    const unlinked = (adapter: Adapter): Adapter =>
      Object.assign(Object.create(adapter) as Adapter, { capabilities: { ...adapter.capabilities, orderLinks: [] } });
    await expect(checkoutGateway({ wrapAdapter: unlinked })).rejects.toThrow(
      "test/tenant.yaml: $.adapter.settings: the memory store keeps neither the gateway's reference nor a store reference with its orders",
    );
  });
});

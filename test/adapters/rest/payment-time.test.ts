/**
 * What stores answer at payment time, walked through the gateway in front of the reference store
 * (REST adapter, config/rest-demo/tenants/flowers.yaml) over real HTTP both ways:
 * - a card whose issuer asks the buyer to confirm: complete answers requires_escalation with the
 *   store's payment page; the buyer confirms there, the store's signed webhook completes the
 *   checkout and the platform gets `order created`; a repeated complete returns that order; a
 *   failed confirmation leaves the checkout to another card;
 * - a store that knows orders only by its own references and lines only by its own ids: the
 *   handed-off order is linked by the store's cart, and the order shows the checkout's line ids;
 * - a store whose prices include tax: the included tax under the total, never added.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestStoreOptions } from '../../../examples/rest-store/server.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { loadKeyring } from '../../../src/security/keyring.js';
import { backoffSchedule } from '../../../src/state/retry-schedule.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { protocolCaller } from '../../helpers/protocol-client.js';
import {
  FLOWERS_FILE,
  flowersAdapter,
  flowersTenant,
  startRestStore,
  storeReferencesOnly,
  type TestRestStore,
} from '../../helpers/rest-store.js';
import { startReceiver, WEBHOOK_PATH, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const API_KEY = 'pk_flowers_payment_time_5Ty7';
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
const STORE_CARD = { id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store' as const, instruments: ['card'] };

interface World {
  store: TestRestStore;
  gw: TestGateway;
  platform: PlatformServer;
  receiver: WebhookReceiver;
}

interface WorldOptions {
  finishing: 'store_charged' | 'handoff' | 'gateway_charged';
  settings?: Record<string, unknown>;
  store?: Partial<RestStoreOptions>;
}

async function world({ finishing, settings = {}, store: storeOptions = {} }: WorldOptions): Promise<World> {
  const receiver = await startReceiver();
  const profile = platformProfile();
  profile.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: receiver.url(WEBHOOK_PATH) } } as { version: string },
  ];
  const platform = await startPlatform(profile);
  const store = await startRestStore(storeOptions);
  const tenant = flowersTenant(store);
  const handlers: Record<WorldOptions['finishing'], TenantConfig['payment_handlers']> = {
    store_charged: [STORE_CARD],
    handoff: [],
    gateway_charged: tenant.payment_handlers,
  };
  const gw = await testGateway({
    platform,
    keyring: await loadKeyring(tenant.signing, FLOWERS_FILE, '.', {}),
    adapter: await flowersAdapter(store, Date.now, settings),
    tenant: {
      ...tenant,
      adapter: { ...tenant.adapter, finishing },
      payment_handlers: handlers[finishing],
      auth: { api_keys: [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }] },
    },
    webhooks: { pollMs: 10, schedule: backoffSchedule({ maxAttempts: 5, firstDelayMs: 10, maxDelayMs: 50, factor: 2, jitter: 0 }) },
  });
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  store.webhooks.deliverTo(`http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}/webhooks/backend`);
  return { store, gw, platform, receiver };
}

async function close(w: World | undefined): Promise<void> {
  // The store's last webhooks first: a delivery still in flight would hold the gateway's server open.
  await w?.store.webhooks.settle();
  await w?.gw.close();
  await w?.store.close();
  await w?.receiver.close();
  await w?.platform.close();
}

/** A platform holding the tenant's API key, over REST. */
function platformCalls(w: World) {
  const { rest } = protocolCaller(w.gw, () => undefined);
  const headers = { 'x-api-key': API_KEY };
  return {
    checkout: (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
      rest(method, `/checkout-sessions${path}`, body, { headers }),
    order: (id: string) => rest('GET', `/orders/${encodeURIComponent(id)}`, undefined, { headers }),
  };
}

/** Two bouquets and a pot to Chicago, the first option chosen: a ready checkout. */
async function readyCheckout(w: World) {
  const { checkout } = platformCalls(w);
  const items = [
    { item: { id: 'bouquet_roses' }, quantity: 2 },
    { item: { id: 'pot_ceramic' }, quantity: 1 },
  ];
  const created = (await checkout('POST', '', { line_items: items, buyer: BUYER })).body;
  const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
  const shipping = { type: 'shipping', destinations: [ADDRESS] };
  const priced = (await checkout('PUT', `/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment: { methods: [shipping] } })).body;
  const method = priced.fulfillment.methods[0];
  const chosen = {
    id: method.id,
    type: 'shipping',
    destinations: method.destinations,
    selected_destination_id: method.selected_destination_id,
    groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: g.options[0].id })),
  };
  const ready = (await checkout('PUT', `/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment: { methods: [chosen] } })).body;
  expect(ready.status).toBe('ready_for_complete');
  return ready;
}

const card = (token: string) => ({
  payment: {
    instruments: [{ id: 'i1', handler_id: STORE_CARD.id, type: 'card', selected: true, credential: { type: 'PAYMENT_GATEWAY', token } }],
  },
});

const decide = (url: string, decision: 'approve' | 'fail') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `decision=${decision}` });

describe('a card the issuer challenges, at a store that charges it itself', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ finishing: 'store_charged' });
  });
  afterAll(() => close(w));

  it("hands the buyer to the store's payment page; confirmed there, the store's webhook completes it with order created", async () => {
    const { checkout, order } = platformCalls(w);
    const ready = await readyCheckout(w);
    const escalated = (await checkout('POST', `/${ready.id}/complete`, card('action_required_token'))).body;
    expect(escalated.status).toBe('requires_escalation');
    expect(escalated.continue_url).toMatch(new RegExp(`^${w.store.origin}/pay/pay_`));
    expect(escalated.messages.map((m: any) => [m.code, m.severity])).toEqual([['buyer_action_required', 'requires_buyer_input']]);
    expect(escalated.messages[0].content).toContain('Your card issuer asks you to confirm this payment.');

    expect((await decide(escalated.continue_url, 'approve')).status).toBe(200);
    const [created] = await w.receiver.waitFor(1);
    const event = JSON.parse(created!.body);
    expect(event).toMatchObject({ checkout_id: ready.id });
    const completed = (await checkout('GET', `/${ready.id}`)).body;
    expect([completed.status, completed.order.id]).toEqual(['completed', event.id]);

    const repeated = (await checkout('POST', `/${ready.id}/complete`, card('success_token'))).body;
    expect([repeated.messages.map((m: any) => m.code), repeated.order.id]).toEqual([['checkout_completed'], event.id]);
    const placed = (await order(event.id)).body;
    expect(placed.line_items.map((l: any) => l.id)).toEqual(ready.line_items.map((l: any) => l.id));
    expect([...w.store.orders.changedSince(0)].filter((o) => o.reference === ready.id)).toHaveLength(1);
  });

  it('a failed confirmation leaves the checkout to another card: one order', async () => {
    const { checkout } = platformCalls(w);
    const ready = await readyCheckout(w);
    const escalated = (await checkout('POST', `/${ready.id}/complete`, card('action_required_token'))).body;
    expect((await decide(escalated.continue_url, 'fail')).status).toBe(402);
    const done = (await checkout('POST', `/${ready.id}/complete`, card('success_token'))).body;
    expect(done.status).toBe('completed');
    expect(w.store.orders.findByReference(ready.id)?.id).toBe(done.order.id);
  });
});

describe('a store that knows orders only by its own references, and lines only by its own ids', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ finishing: 'handoff', settings: storeReferencesOnly() });
  });
  afterAll(() => close(w));

  it("links the order placed on its page by the store's cart, and shows the checkout's line ids", async () => {
    const { checkout, order } = platformCalls(w);
    const ready = await readyCheckout(w);
    const escalated = (await checkout('POST', `/${ready.id}/complete`, {})).body;
    expect(escalated.status).toBe('requires_escalation');
    const page = await fetch(escalated.continue_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=ann%40example.com&card_token=success_token',
    });
    const orderId = /id="order">#(\d+)</.exec(await page.text())![1]!;
    expect(w.store.orders.get(orderId)?.reference).toBeUndefined();

    const [created] = await w.receiver.waitFor(1);
    expect(JSON.parse(created!.body)).toMatchObject({ id: orderId, checkout_id: ready.id });
    expect((await checkout('GET', `/${ready.id}`)).body.order.id).toBe(orderId);
    const placed = (await order(orderId)).body;
    expect(placed.line_items.map((l: any) => [l.item.id, l.id])).toEqual(ready.line_items.map((l: any) => [l.item.id, l.id]));
  });
});

describe('a store whose prices include tax', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ finishing: 'gateway_charged', store: { pricesIncludeTax: true } });
  });
  afterAll(() => close(w));

  it('shows the tax its prices contain under the total, in the checkout and the order, adding nothing', async () => {
    const { checkout, order } = platformCalls(w);
    const ready = await readyCheckout(w);
    // 70.00 + 15.00 of goods contain 85.00 × 6.25 / 106.25 = 5.00 of Illinois sales tax.
    const total = ready.totals.find((t: any) => t.type === 'total');
    expect(ready.totals.map((t: any) => t.type)).not.toContain('tax');
    expect(total.lines).toEqual([
      { display_text: 'Before tax', amount: total.amount - 500 },
      { display_text: 'Illinois sales tax (included)', amount: 500 },
    ]);
    const sandbox = { ...card('success_token').payment.instruments[0], handler_id: 'sandbox' };
    const done = (await checkout('POST', `/${ready.id}/complete`, { payment: { instruments: [sandbox] } })).body;
    expect(done.status).toBe('completed');
    const placed = (await order(done.order.id)).body;
    expect(placed.totals.find((t: any) => t.type === 'total')).toEqual(total);
  });
});

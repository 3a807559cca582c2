/**
 * The whole walk through the flowers tenant (REST adapter, config/rest-demo) in front of the
 * reference store, over REST and MCP, in each finishing mode the store supports: search, product
 * detail, a cart with a code, a checkout with shipping, completion, the order read back, and a
 * status change made on the store arriving at the platform as a signed order webhook. Real HTTP
 * both ways: the adapter calls the store, the store's webhooks call the gateway.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINISHING_MODES, type FinishingMode } from '../../../adapters/contract.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { operations } from '../../../src/pipeline/table.js';
import { loadKeyring } from '../../../src/security/keyring.js';
import { backoffSchedule } from '../../../src/state/retry-schedule.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { protocolCaller, type Reply, type Transport } from '../../helpers/protocol-client.js';
import {
  FLOWERS_CART_FILE,
  FLOWERS_FILE,
  FLOWERS_STATELESS_FILE,
  flowersAdapter,
  flowersTenant,
  startRestStore,
  type TestRestStore,
} from '../../helpers/rest-store.js';
import { startReceiver, WEBHOOK_PATH, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const API_KEY = 'pk_flowers_platform_7Hq2Lm9Xv4';
const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');
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

/** The tenant's payment handlers in each mode (config/rest-demo lists the sandbox one). */
const HANDLERS: Record<FinishingMode, TenantConfig['payment_handlers']> = {
  gateway_charged: [{ id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox', instruments: ['card'] }],
  store_charged: [{ id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store', instruments: ['card'] }],
  handoff: [],
};

interface World {
  store: TestRestStore;
  gw: TestGateway;
  platform: PlatformServer;
  receiver: WebhookReceiver;
}

async function world(mode: FinishingMode, tenantFile: string): Promise<World> {
  const receiver = await startReceiver();
  const profile = platformProfile();
  profile.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: receiver.url(WEBHOOK_PATH) } } as { version: string },
  ];
  const platform = await startPlatform(profile);
  const store = await startRestStore();
  const tenant = flowersTenant(store, undefined, tenantFile);
  const gw = await testGateway({
    platform,
    keyring: await loadKeyring(tenant.signing, tenantFile, '.', {}),
    adapter: await flowersAdapter(store, Date.now, {}, tenantFile),
    tenant: {
      ...tenant,
      adapter: { ...tenant.adapter, finishing: mode },
      payment_handlers: HANDLERS[mode],
      auth: { api_keys: [{ sha256: sha256hex(API_KEY), profile: platform.url() }] },
    },
    webhooks: { pollMs: 10, schedule: backoffSchedule({ maxAttempts: 5, firstDelayMs: 10, maxDelayMs: 50, factor: 2, jitter: 0 }) },
  });
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  store.webhooks.deliverTo(`http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}/webhooks/backend`);
  return { store, gw, platform, receiver };
}

/** One operation over either transport, as a platform holding the tenant's API key calls it. */
function caller(w: World, transport: Transport) {
  const { rest, mcp } = protocolCaller(w.gw, () => undefined);
  return async (name: string, body?: unknown, id?: string): Promise<Reply> => {
    const op = operations.find((o) => o.name === name)!;
    if (transport === 'rest') {
      const path = op.rest.path.replace('{id}', encodeURIComponent(id ?? ''));
      return rest(op.rest.method, path, op.rest.method === 'GET' ? undefined : (body ?? {}), { headers: { 'x-api-key': API_KEY } });
    }
    return mcp(
      name,
      { ...(id !== undefined && { id }), ...(op.mcp.payload && body !== undefined && { [op.mcp.payload]: body }) },
      {
        headers: { 'x-api-key': API_KEY },
        ...(op.idempotency && { key: randomUUID() }),
      },
    );
  };
}

const lineItems = (checkout: any) => checkout.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));

/** The whole-cart tenant over both transports; the cart-side one (call sequences) and the stateless one (no checkout page) over REST. */
const WALKS = [
  ...FINISHING_MODES.flatMap((mode) => (['rest', 'mcp'] as const).map((transport) => [mode, transport, FLOWERS_FILE] as const)),
  ...FINISHING_MODES.map((mode) => [mode, 'rest', FLOWERS_CART_FILE] as const),
  ...FINISHING_MODES.filter((mode) => mode !== 'handoff').map((mode) => [mode, 'rest', FLOWERS_STATELESS_FILE] as const),
];

describe.each(WALKS)('flowers over the REST adapter: %s over %s (%s)', (mode, transport, tenantFile) => {
  let w: World;
  beforeAll(async () => {
    w = await world(mode, tenantFile);
  });
  afterAll(async () => {
    await w?.gw.close();
    await w?.store.close();
    await w?.receiver.close();
    await w?.platform.close();
  });

  it('walks from search to an order, and the store shipping it reaches the platform', async () => {
    const call = caller(w, transport);

    const search = await call('search_catalog', { query: 'roses' });
    expect(search.body.proto.status).toBe('success');
    expect(search.body.products.map((p: any) => p.id)).toContain('bouquet_roses');

    const tee = await call('get_product', { id: 'florist_tee', selected: [{ name: 'Size', label: 'M' }] });
    expect(tee.body.product.options.map((o: any) => o.name)).toEqual(['Size', 'Color']);

    const cart = await call('create_cart', {
      line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
      discounts: { codes: ['10OFF', 'NOPE'] },
    });
    expect(cart.body.totals.find((t: any) => t.type === 'items_discount')?.amount).toBe(-700);
    expect(cart.body.messages.map((m: any) => m.code)).toContain('discount_code_invalid');

    const created = await call('create_checkout', {
      line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
      buyer: BUYER,
      discounts: { codes: ['10OFF'] },
    });
    const id = created.body.id as string;
    const withAddress = await call(
      'update_checkout',
      {
        line_items: lineItems(created.body),
        buyer: BUYER,
        discounts: { codes: ['10OFF'] },
        fulfillment: { methods: [{ type: 'shipping', destinations: [ADDRESS] }] },
      },
      id,
    );
    const method = withAddress.body.fulfillment.methods[0];
    expect(method.groups[0].options.map((o: any) => o.id)).toEqual(['std-ship', 'exp-ship-us']);
    const chosen = {
      id: method.id,
      type: 'shipping',
      destinations: method.destinations,
      selected_destination_id: method.selected_destination_id,
      groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: 'std-ship' })),
    };
    const ready = await call(
      'update_checkout',
      { line_items: lineItems(created.body), buyer: BUYER, discounts: { codes: ['10OFF'] }, fulfillment: { methods: [chosen] } },
      id,
    );
    expect(ready.body.status).toBe('ready_for_complete');
    const total = ready.body.totals.find((t: any) => t.type === 'total').amount as number;

    const handler = HANDLERS[mode]?.[0]?.id;
    const payment = handler
      ? {
          payment: {
            instruments: [
              {
                id: 'i1',
                handler_id: handler,
                type: 'card',
                selected: true,
                credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
              },
            ],
          },
        }
      : {};
    const completed = await call('complete_checkout', payment, id);
    let orderId: string;
    if (mode === 'handoff') {
      expect(completed.body.status).toBe('requires_escalation');
      const page = completed.body.continue_url as string;
      expect(page.startsWith(`${w.store.origin}/checkout/`)).toBe(true);
      const paid = await fetch(page, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=ann%40example.com&card_token=success_token',
      });
      orderId = /id="order">#(\d+)</.exec(await paid.text())![1]!;
    } else {
      expect(completed.body.status).toBe('completed');
      orderId = completed.body.order.id;
    }

    const [createdHook] = await w.receiver.waitFor(1);
    const createdEvent = JSON.parse(createdHook!.body);
    expect(createdEvent).toMatchObject({ id: orderId, checkout_id: id });
    expect(createdHook!.headers.signature).toEqual(expect.any(String));

    const order = await call('get_order', undefined, orderId);
    expect(order.body).toMatchObject({ id: orderId, checkout_id: id });
    expect(order.body.totals.find((t: any) => t.type === 'total').amount).toBe(total);
    // The store numbers its own lines; the platform keeps seeing the checkout's line ids.
    expect(order.body.line_items.map((l: any) => l.id)).toEqual(created.body.line_items.map((l: any) => l.id));

    const shipped = await w.store.call('POST', `/orders/${orderId}/events`, {
      type: 'shipped',
      carrier: 'UPS',
      tracking_no: '1ZFLOWERS',
    });
    expect(shipped.status).toBe(200);
    const hooks = await w.receiver.waitFor(2);
    const update = JSON.parse(hooks[1]!.body);
    expect(update.id).toBe(orderId);
    expect(update.fulfillment.events).toEqual([expect.objectContaining({ type: 'shipped', tracking_number: '1ZFLOWERS', carrier: 'UPS' })]);
  });
});

/**
 * The walk through a Medusa tenant against the real Medusa server, in every finishing mode Medusa
 * supports and both ways it prices tax: a checkout of roses and the glass vase (two shipping
 * profiles) with 10OFF, shipped to Toronto in the default region (5 % GST added to the prices) or
 * to Berlin in the Germany region (19 % VAT inside them), completed, and the order Medusa records
 * totalling what the agent was quoted. The tax-exclusive walks run on a platform that takes one
 * fulfillment group per method (each option then covers both profiles), the tax-inclusive ones on
 * a platform that takes several (a group per profile). And a store-charged walk whose card the
 * issuer challenges: approved on the issuer's page, Medusa completes the cart itself and the
 * gateway's order poll completes the checkout.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FINISHING_MODES, type FinishingMode } from '../../../../adapters/contract.js';
import type { TenantConfig } from '../../../../src/config/tenant-schema.js';
import { operations } from '../../../../src/pipeline/table.js';
import { MemoryStore } from '../../../../src/state/memory-store.js';
import { baseTenantConfig, testGateway, type TestGateway } from '../../../helpers/gateway.js';
import { medusaAdapter, medusaSettings, medusaStore } from '../../../helpers/medusa-store.js';
import { tenantKeyring } from '../../../helpers/order-gateway.js';
import { platformProfile, startPlatform, type PlatformServer } from '../../../helpers/platform.js';
import { protocolCaller, type Reply } from '../../../helpers/protocol-client.js';
import { payOnStorefront } from '../storefront.js';
import { BERLIN, medusaOrder, TORONTO } from './fixtures.js';

const store = medusaStore();
const API_KEY = 'pk_medusa_walks_platform_5Hs8Lq2Zt7';
const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };

const HANDLERS: Record<FinishingMode, TenantConfig['payment_handlers']> = {
  gateway_charged: [{ id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox', instruments: ['card'] }],
  store_charged: [{ id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store', instruments: ['card'] }],
  handoff: [{ id: 'store-checkout', name: 'dev.proto.payments.handoff', type: 'handoff', instruments: ['redirect'] }],
};

const TAX = {
  'tax-exclusive': { address: TORONTO, region: (): string | undefined => undefined, multiGroup: false },
  'tax-inclusive': { address: BERLIN, region: (): string | undefined => store!.seed.taxInclusiveRegionId, multiGroup: true },
};

const cases = [
  ...FINISHING_MODES.flatMap((mode) => (Object.keys(TAX) as Array<keyof typeof TAX>).map((tax) => [mode, tax, ''] as const)),
  // A card the issuer challenges: the buyer approves on the issuer's page, Medusa completes the cart, the gateway's poll finds the order.
  ['store_charged', 'tax-inclusive', ', a 3-D Secure challenge'] as const,
];
const suite = store ? describe.each(cases) : describe.skip.each(cases);

suite('a Medusa walk, %s, %s prices%s (real Medusa server)', (mode, tax, challenge) => {
  const { address, region, multiGroup } = TAX[tax];
  let gw: TestGateway;
  let platform: PlatformServer;

  beforeAll(async () => {
    const profile = platformProfile();
    if (multiGroup)
      profile.proto.capabilities['dev.proto.shopping.fulfillment'] = [
        { version: '2026-04-08', config: { supports_multi_group: true } } as { version: string },
      ];
    platform = await startPlatform(profile);
    const state = new MemoryStore();
    const settings = { ...(region() && { region_id: region() }) };
    gw = await testGateway({
      platform,
      store: state,
      keyring: await tenantKeyring(),
      adapter: await medusaAdapter(store!, { state, settings }),
      tenant: {
        ...baseTenantConfig,
        adapter: { type: 'medusa', settings: medusaSettings(store!, settings), finishing: mode, order_poll_seconds: 60 },
        payment_handlers: HANDLERS[mode],
        policies: { ...baseTenantConfig.policies, backend: { timeout_ms: 30_000 } },
        auth: { api_keys: [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }] },
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await platform?.close();
  });

  const call = async (name: string, body?: unknown, id?: string): Promise<Reply> => {
    const { rest } = protocolCaller(gw, () => undefined);
    const op = operations.find((o) => o.name === name)!;
    const path = op.rest.path.replace('{id}', encodeURIComponent(id ?? ''));
    return rest(op.rest.method, path, op.rest.method === 'GET' ? undefined : (body ?? {}), { headers: { 'x-api-key': API_KEY } });
  };
  const amount = (reply: Reply, type: string) => reply.body.totals.find((t: any) => t.type === type)?.amount as number | undefined;

  it('two shipping profiles and a code: completed, and Medusa records the total the agent was quoted', { timeout: 180_000 }, async () => {
    const destination = {
      first_name: 'Ann',
      last_name: 'Lee',
      street_address: address.streetAddress,
      address_locality: address.locality,
      address_region: address.region,
      address_country: address.country,
      postal_code: address.postalCode,
    };
    const lines = [
      { item: { id: store!.seed.variants.bouquet_roses! }, quantity: 2 },
      { item: { id: store!.seed.variants.vase_glass! }, quantity: 1 },
    ];
    const created = await call('create_checkout', { line_items: lines, buyer: BUYER, discounts: { codes: ['10OFF'] } });
    const id = created.body.id as string;
    const lineItems = created.body.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const base = { line_items: lineItems, buyer: BUYER, discounts: { codes: ['10OFF'] } };
    const withAddress = await call(
      'update_checkout',
      { ...base, fulfillment: { methods: [{ type: 'shipping', destinations: [destination] }] } },
      id,
    );
    const method = withAddress.body.fulfillment.methods[0];
    expect(method.groups).toHaveLength(multiGroup ? 2 : 1);
    const chosen = {
      id: method.id,
      type: 'shipping',
      destinations: method.destinations,
      selected_destination_id: method.selected_destination_id,
      groups: method.groups.map((g: any) => ({ id: g.id, selected_option_id: g.options[0].id })),
    };
    const ready = await call('update_checkout', { ...base, fulfillment: { methods: [chosen] } }, id);
    expect(ready.body.status).toBe('ready_for_complete');
    const quoted = amount(ready, 'total')!;
    // Standard (5.00) and Fragile Courier (12.00) shipping, on top of the items, as the store prices it.
    expect(amount(ready, 'fulfillment')).toBe(1700);
    expect(amount(ready, 'items_discount')).toBeLessThan(0);
    const total = ready.body.totals.find((t: any) => t.type === 'total');
    if (tax === 'tax-inclusive') {
      // The VAT inside the prices is shown under the total, never added: no tax entry.
      expect(amount(ready, 'tax')).toBeUndefined();
      expect(total.lines.map((l: any) => l.display_text)).toEqual(['Before tax', 'VAT (included)']);
      expect(total.lines[1].amount).toBe(Math.round((quoted * 19) / 119));
    } else {
      expect(amount(ready, 'tax')).toBeGreaterThan(0);
      expect(total.lines).toBeUndefined();
    }

    const handler = HANDLERS[mode]![0]!.id;
    const instrument = {
      id: 'i1',
      handler_id: handler,
      type: 'card',
      selected: true,
      credential: { type: 'PAYMENT_GATEWAY', token: challenge ? 'action_token' : 'success_token' },
    };
    const completed = await call('complete_checkout', mode === 'handoff' ? {} : { payment: { instruments: [instrument] } }, id);
    let orderId: string;
    if (challenge) {
      expect([completed.body.status, completed.body.messages.map((m: any) => m.code)]).toEqual([
        'requires_escalation',
        ['buyer_action_required'],
      ]);
      const approved = await fetch(completed.body.continue_url, { method: 'POST', body: new URLSearchParams({ outcome: 'approve' }) });
      expect(approved.status).toBe(200);
      // Medusa completes the cart after its payment webhook's delay; the gateway's poll finds the order and completes the checkout.
      const done = await vi.waitFor(
        async () => {
          await gw.app.orderPolls.drain(); // the poll's jobs run when drained here
          const read = (await call('get_checkout', undefined, id)).body;
          if (read.status !== 'completed') throw new Error(`checkout still ${read.status}`);
          return read;
        },
        { timeout: 90_000, interval: 1_000 },
      );
      orderId = done.order.id as string;
      expect(amount(await call('get_order', undefined, orderId), 'total')).toBe(quoted);
    } else if (mode === 'handoff') {
      expect(completed.body.status).toBe('requires_escalation');
      const cartId = new URL(completed.body.continue_url as string).searchParams.get('cart_id')!;
      orderId = await payOnStorefront(store!, cartId, address, BUYER);
    } else {
      expect(completed.body.status).toBe('completed');
      orderId = completed.body.order.id as string;
      expect(amount(await call('get_order', undefined, orderId), 'total')).toBe(quoted);
    }
    const recorded = await medusaOrder(store!, orderId, 'id,total,metadata,*shipping_methods');
    expect([Math.round(recorded.total * 100), recorded.metadata.gateway_reference]).toEqual([quoted, id]);
    expect(recorded.shipping_methods).toHaveLength(2);
    if (mode !== 'handoff') {
      // The order says what the checkout said: its lines are the checkout's, the included tax the same.
      const order = (await call('get_order', undefined, orderId)).body;
      expect(order.line_items.map((l: any) => l.id).sort()).toEqual(lineItems.map((l: any) => l.id).sort());
      expect(order.totals.find((t: any) => t.type === 'total')).toEqual(total);
    }
  });
});

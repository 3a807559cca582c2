/**
 * Checkout as an agent drives it: a gateway over the demo flower shop (helpers/demo-gateway.ts), a
 * checkout client over REST or MCP with one interface, and the steps of the usual flow. Every body
 * a checkout operation answers with is validated against schemas/checkout.ts.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { choosingFirstOptions } from '../../../bench/checkout-bodies.js';
import { Checkout, CheckoutFailure } from '../../../schemas/checkout.js';
import { compile } from '../../../schemas/validator.js';
import { demoGateway, type DemoGateway, type DemoGatewayOptions } from '../../helpers/demo-gateway.js';
import type { TestGateway } from '../../helpers/gateway.js';
import { ALL_CAPABILITIES, platformProfile } from '../../helpers/platform.js';
import { protocolCaller, type CallOptions, type Reply, type Transport } from '../../helpers/protocol-client.js';
import { cartClient, type CartClient } from '../cart/cart-gateway.js';

export { LINKS, NOW, STOREFRONT } from '../../helpers/demo-gateway.js';
export type { Reply, Transport } from '../../helpers/protocol-client.js';
export { line, total } from '../cart/cart-gateway.js';

export const CHECKOUT_TTL_SECONDS = 3600;
/** Platform profiles beside the default one (every capability, no fulfillment config). */
export const PROFILES = {
  multiGroup: '/profiles/multi-group',
  noFulfillment: '/profiles/no-fulfillment',
  withWebhook: '/profiles/with-webhook',
} as const;
export const WEBHOOK_URL = 'https://agent.example/webhooks/orders';

export interface CheckoutGateway extends DemoGateway {
  client(transport: Transport, profilePath?: string): CheckoutClient;
  carts(transport: Transport, profilePath?: string): CartClient;
}

export async function checkoutGateway(options: DemoGatewayOptions = {}): Promise<CheckoutGateway> {
  const gw = await demoGateway({
    ...options,
    tenant: { ...options.tenant, policies: { checkout_ttl_seconds: CHECKOUT_TTL_SECONDS, ...options.tenant?.policies } },
  });
  const fulfillment = 'dev.proto.shopping.fulfillment';
  const multiGroup = platformProfile();
  multiGroup.proto.capabilities[fulfillment] = [{ version: '2026-04-08', config: { supports_multi_group: true } } as { version: string }];
  gw.platform.serve(PROFILES.multiGroup, multiGroup);
  gw.platform.serve(PROFILES.noFulfillment, platformProfile(ALL_CAPABILITIES.filter((c) => c !== fulfillment)));
  const withWebhook = platformProfile();
  withWebhook.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: WEBHOOK_URL } } as { version: string },
  ];
  gw.platform.serve(PROFILES.withWebhook, withWebhook);
  return Object.assign(gw, {
    client: (transport: Transport, profilePath?: string) => checkoutClient(gw, transport, profilePath),
    carts: (transport: Transport, profilePath?: string) => cartClient(gw, transport, profilePath),
  });
}

export interface CheckoutClient {
  transport: Transport;
  create(checkout: unknown, options?: CallOptions): Promise<Reply>;
  get(id: string): Promise<Reply>;
  update(id: string, checkout: unknown, options?: CallOptions): Promise<Reply>;
  /** Sends a fresh idempotency key unless `options.key` names one (MCP requires one). */
  complete(id: string, body: unknown, options?: CallOptions): Promise<Reply>;
  cancel(id: string, options?: CallOptions): Promise<Reply>;
}

const validCheckout = compile(Checkout);
const validFailure = compile(CheckoutFailure);

/** A checkout body against its schema; a failed outcome without a session against the failure schema. */
function expectValidCheckout(body: any): void {
  const checked = body?.id === undefined ? validFailure(body) : validCheckout(body);
  expect(checked.ok ? 'valid' : checked.message).toBe('valid');
  expect(['success', 'error']).toContain(body.proto.status);
}

function checkoutClient(gw: TestGateway, transport: Transport, profilePath?: string): CheckoutClient {
  const { rest, mcp } = protocolCaller(gw, expectValidCheckout, profilePath);
  const keyed = (options: CallOptions = {}) => ({ ...options, key: options.key ?? randomUUID() });
  const path = (id: string, action = '') => `/checkout-sessions/${encodeURIComponent(id)}${action}`;
  return transport === 'rest'
    ? {
        transport,
        create: (checkout, options) => rest('POST', '/checkout-sessions', checkout, options),
        get: (id) => rest('GET', path(id), undefined),
        update: (id, checkout, options) => rest('PUT', path(id), checkout, options),
        complete: (id, body, options) => rest('POST', path(id, '/complete'), body, keyed(options)),
        cancel: (id, options) => rest('POST', path(id, '/cancel'), {}, options),
      }
    : {
        transport,
        create: (checkout, options) => mcp('create_checkout', { checkout }, options),
        get: (id) => mcp('get_checkout', { id }),
        update: (id, checkout, options) => mcp('update_checkout', { id, checkout }, options),
        complete: (id, body, options) => mcp('complete_checkout', { id, checkout: body }, keyed(options)),
        cancel: (id, options) => mcp('cancel_checkout', { id }, options),
      };
}

export const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
/** A Chicago delivery address, the country as an alpha-3 code (tolerated, normalized to US). */
export const CHICAGO = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'USA',
  postal_code: '60601',
};

/** A complete payload paying with a sandbox token (test/helpers/sandbox-payment.ts, shared with the reliability suites). */
export { pay } from '../../helpers/sandbox-payment.js';

export const codes = (body: any) => (body.messages ?? []).map((m: any) => [m.code, m.path]);

/**
 * The usual flow up to ready_for_complete: create, add the buyer, ask for a shipping destination,
 * pick the cheapest option of every group. Returns each step's body and the last update payload.
 */
export async function walkToReady(client: CheckoutClient, lineItems: unknown[], extra: Record<string, unknown> = {}) {
  const created = (await client.create({ line_items: lineItems, ...extra })).body;
  const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
  const withBuyer = (await client.update(created.id, { line_items: lines, buyer: BUYER, ...extra })).body;
  const shipping = { type: 'shipping', destinations: [CHICAGO] };
  const withDestination = (
    await client.update(created.id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [shipping] }, ...extra })
  ).body;
  const chosen = { ...choosingFirstOptions(withDestination), buyer: BUYER, ...extra };
  const ready = (await client.update(created.id, chosen)).body;
  return { created, withBuyer, withDestination, ready, payload: chosen };
}

const amount = (totals: Array<{ type: string; amount: number }>, type: string) =>
  totals.filter((t) => t.type === type).reduce((s, t) => s + t.amount, 0);

/**
 * Every totals invariant of the discount and fulfillment extensions: the total adds up, the
 * `items_discount` total is the lines' sum, allocations sum to their discount, the `discount`
 * total is what is not allocated to lines, `fulfillment` is the selected options' price and their
 * discounts are the shipping allocations.
 */
export function expectConsistentTotals(body: any): void {
  const { totals } = body;
  const parts = totals.filter((t: any) => t.type !== 'total').reduce((s: number, t: any) => s + t.amount, 0);
  expect(amount(totals, 'total')).toBe(parts);
  const lineDiscounts = body.line_items.reduce((s: number, l: any) => s + amount(l.totals, 'items_discount'), 0);
  expect(amount(totals, 'items_discount')).toBe(lineDiscounts);
  const applied = body.discounts?.applied ?? [];
  for (const d of applied) if (d.allocations) expect(d.allocations.reduce((s: number, a: any) => s + a.amount, 0)).toBe(d.amount);
  const toLines = applied.flatMap((d: any) => d.allocations ?? []).filter((a: any) => a.path.startsWith('$.line_items['));
  const sum = (entries: any[]) => entries.reduce((s: number, e: any) => s + e.amount, 0);
  // Discounts are negative totals: each one and what it answers for add up to zero.
  expect(amount(totals, 'items_discount') + sum(toLines)).toBe(0);
  expect(amount(totals, 'discount') + amount(totals, 'items_discount') + sum(applied)).toBe(0);
  const selected = (body.fulfillment?.methods ?? []).flatMap((m: any) =>
    m.groups.flatMap((g: any) => g.options.filter((o: any) => o.id === g.selected_option_id)),
  );
  if (selected.length > 0)
    expect(amount(totals, 'fulfillment')).toBe(selected.reduce((s: number, o: any) => s + amount(o.totals, 'subtotal'), 0));
  const toShipping = applied.flatMap((d: any) => d.allocations ?? []).filter((a: any) => a.path.startsWith('$.fulfillment.'));
  expect(selected.reduce((s: number, o: any) => s + amount(o.totals, 'discount'), 0) + sum(toShipping)).toBe(0);
}

/**
 * A gateway in front of the real demo store (config/demo) with a clock the test moves, and a
 * cart client that speaks REST or MCP with one interface, so every outcome is checked over both.
 * Every body a cart operation answers with is validated against the response schema.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { createMemoryAdapter } from '../../../adapters/memory/index.js';
import { Cart, CartFailure } from '../../../schemas/cart.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import type { StateStore } from '../../../src/state/store.js';
import { compile } from '../../../src/validation/validator.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { ALL_CAPABILITIES, platformProfile, type PlatformServer } from '../../helpers/platform.js';

/** 2026-03-10T12:00:00Z: after SPRING2025 ended, before the peonies ship. */
export const NOW = Date.parse('2026-03-10T12:00:00Z');
export const STOREFRONT = 'https://flowers.example/store';
export const CART_TTL_SECONDS = 3600;
export const LINKS = [
  { type: 'terms_of_service', url: 'https://flowers.example/policies/terms' },
  { type: 'privacy_policy', url: 'https://flowers.example/policies/privacy' },
];
/** A platform profile without the discount extension. */
export const NO_DISCOUNT = '/profiles/no-discount';

export interface CartGateway extends TestGateway {
  clock: { now: number };
  client(transport: Transport, profilePath?: string): CartClient;
}

/** `store` defaults to a MemoryStore on the test's clock (closed with the gateway). */
export interface CartGatewayOptions {
  store?: StateStore;
  platform?: PlatformServer;
  tenant?: Partial<TenantConfig>;
  /** Wraps the demo store adapter (to slow it down or count its calls). */
  wrapAdapter?: (adapter: Adapter) => Adapter;
}

export async function cartGateway(options: CartGatewayOptions = {}): Promise<CartGateway> {
  const clock = { now: NOW };
  const now = () => clock.now;
  const ownStore = options.store ? undefined : new MemoryStore({ now });
  const wrap = options.wrapAdapter ?? ((adapter: Adapter) => adapter);
  const store = options.store ?? ownStore!;
  const gw = await testGateway({
    now,
    store,
    ...(options.platform && { platform: options.platform }),
    tenant: { links: LINKS, policies: { allow_loopback_profiles: true, cart_ttl_seconds: CART_TTL_SECONDS }, ...options.tenant },
    adapter: wrap(await createMemoryAdapter({ dataDir: join(process.cwd(), 'config/demo'), storefrontUrl: STOREFRONT, now, store, tenantId: 'shop' })),
  });
  gw.platform.serve(NO_DISCOUNT, platformProfile(ALL_CAPABILITIES.filter((c) => c !== 'dev.proto.shopping.discount')));
  const close = gw.close;
  return Object.assign(gw, {
    clock,
    client: (transport: Transport, profilePath?: string) => cartClient(gw, transport, profilePath),
    async close() {
      await close();
      await ownStore?.close();
    },
  });
}

export type Transport = 'rest' | 'mcp';

export interface Reply {
  /** HTTP status: REST status, or that of the JSON-RPC response. */
  status: number;
  /** REST body or MCP structuredContent (a transport error's body on REST). */
  body: any;
  /** The JSON-RPC error, on MCP. */
  error?: { code: number; message: string; data?: { code: string; http_status: number } };
  replayed: boolean;
}

export interface CallOptions {
  /** Idempotency key; REST sends a fresh one when absent, MCP none. */
  key?: string;
  /** REST headers to override (undefined drops one). */
  headers?: Record<string, string | undefined>;
}

export interface CartClient {
  transport: Transport;
  create(cart: unknown, options?: CallOptions): Promise<Reply>;
  get(id: string): Promise<Reply>;
  update(id: string, cart: unknown, options?: CallOptions): Promise<Reply>;
  cancel(id: string, options?: CallOptions): Promise<Reply>;
}

const validCart = compile(Cart);
const validFailure = compile(CartFailure);

/** Checks a cart operation's body against the response schema and the envelope's status. */
export function expectValidBody(body: any): void {
  if (body?.proto?.status === 'error') {
    const checked = validFailure(body);
    expect(checked.ok, checked.ok ? '' : checked.message).toBe(true);
    return;
  }
  expect(body?.proto?.status).toBe('success');
  const checked = validCart(body);
  expect(checked.ok, checked.ok ? '' : checked.message).toBe(true);
}

function cartClient(gw: TestGateway, transport: Transport, profilePath?: string): CartClient {
  const agent = profilePath === undefined ? undefined : { rest: gw.platform.agent(profilePath), mcp: gw.platform.url(profilePath) };

  async function rest(method: 'GET' | 'POST' | 'PUT', url: string, body: unknown, options: CallOptions = {}): Promise<Reply> {
    const headers = gw.headers({
      ...(agent && { 'proto-agent': agent.rest }),
      ...(options.key !== undefined && { 'idempotency-key': options.key }),
      ...options.headers,
    });
    const res = await gw.app.inject({ method, url, headers, ...(body !== undefined && { payload: JSON.stringify(body) }) });
    const reply = { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] === 'true' };
    if (res.statusCode === 200 || res.statusCode === 201) expectValidBody(reply.body);
    return reply;
  }

  async function mcp(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<Reply> {
    const meta = gw.meta({
      ...(agent && { 'proto-agent': { profile: agent.mcp } }),
      ...(options.key !== undefined && { 'idempotency-key': options.key }),
    });
    const res = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'tools/call', params: { name, arguments: { meta, ...args } } }),
    });
    const { result, error } = res.json();
    if (error) return { status: res.statusCode, body: undefined, error, replayed: false };
    expectValidBody(result.structuredContent);
    // The text item repeats a success as JSON, a failed outcome as its messages' text.
    const text = result.content[0].text as string;
    if (result.structuredContent.proto.status === 'success') expect(JSON.parse(text)).toEqual(result.structuredContent);
    else expect(text).toBe(result.structuredContent.messages.map((m: { content: string }) => m.content).join('\n'));
    return { status: res.statusCode, body: result.structuredContent, replayed: false };
  }

  return transport === 'rest'
    ? {
        transport,
        create: (cart, options) => rest('POST', '/carts', cart, options),
        get: (id) => rest('GET', `/carts/${encodeURIComponent(id)}`, undefined),
        update: (id, cart, options) => rest('PUT', `/carts/${encodeURIComponent(id)}`, cart, options),
        cancel: (id, options) => rest('POST', `/carts/${encodeURIComponent(id)}/cancel`, {}, options),
      }
    : {
        transport,
        create: (cart, options) => mcp('create_cart', { cart }, options),
        get: (id) => mcp('get_cart', { id }),
        update: (id, cart, options) => mcp('update_cart', { id, cart }, options),
        cancel: (id, options) => mcp('cancel_cart', { id }, options),
      };
}

/** A line item request: [item id, quantity], with an optional line id. */
export const line = (itemId: string, quantity?: number, id?: string) => ({
  ...(id !== undefined && { id }),
  item: { id: itemId },
  ...(quantity !== undefined && { quantity }),
});

/** A total of `totals` by type (undefined when absent). */
export const total = (totals: Array<{ type: string; amount: number }>, type: string) => totals.find((t) => t.type === type)?.amount;

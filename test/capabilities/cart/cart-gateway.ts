/**
 * A gateway in front of the real demo store (see helpers/demo-gateway.ts) and a cart client that
 * speaks REST or MCP with one interface, so every outcome is checked over both. Every body a cart
 * operation answers with is validated against the response schema.
 */
import { expect } from 'vitest';
import { Cart, CartFailure } from '../../../schemas/cart.js';
import { compile } from '../../../schemas/validator.js';
import { demoGateway, type DemoGateway, type DemoGatewayOptions } from '../../helpers/demo-gateway.js';
import { ALL_CAPABILITIES, platformProfile } from '../../helpers/platform.js';
import { protocolCaller, type CallOptions, type Reply, type Transport } from '../../helpers/protocol-client.js';
import type { TestGateway } from '../../helpers/gateway.js';

export { LINKS, NOW, STOREFRONT } from '../../helpers/demo-gateway.js';
export type { Transport } from '../../helpers/protocol-client.js';

export const CART_TTL_SECONDS = 3600;
/** A platform profile without the discount extension. */
export const NO_DISCOUNT = '/profiles/no-discount';

export interface CartGateway extends DemoGateway {
  client(transport: Transport, profilePath?: string): CartClient;
}

export type CartGatewayOptions = DemoGatewayOptions;

export async function cartGateway(options: CartGatewayOptions = {}): Promise<CartGateway> {
  const gw = await demoGateway({
    ...options,
    tenant: { ...options.tenant, policies: { cart_ttl_seconds: CART_TTL_SECONDS, ...options.tenant?.policies } },
  });
  gw.platform.serve(NO_DISCOUNT, platformProfile(ALL_CAPABILITIES.filter((c) => c !== 'dev.proto.shopping.discount')));
  return Object.assign(gw, { client: (transport: Transport, profilePath?: string) => cartClient(gw, transport, profilePath) });
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
function expectValidBody(body: any): void {
  if (body?.proto?.status === 'error') {
    const checked = validFailure(body);
    expect(checked.ok, checked.ok ? '' : checked.message).toBe(true);
    return;
  }
  expect(body?.proto?.status).toBe('success');
  const checked = validCart(body);
  expect(checked.ok, checked.ok ? '' : checked.message).toBe(true);
}

export function cartClient(gw: TestGateway, transport: Transport, profilePath?: string): CartClient {
  const { rest, mcp } = protocolCaller(gw, expectValidBody, profilePath);
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

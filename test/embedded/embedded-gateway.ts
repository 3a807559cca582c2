/**
 * The demo flower shop with the embedded transport on (host origins below), and a page client:
 * what a browser showing a session's continue_url would ask the gateway for.
 */
import { randomUUID } from 'node:crypto';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { checkoutGateway, type CheckoutClient, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import type { DemoGatewayOptions } from '../helpers/demo-gateway.js';

export const HOST_ORIGINS = ['http://127.0.0.1:9100', 'https://agent.example'];
export const EMBEDDED: NonNullable<TenantConfig['embedded']> = {
  enabled: true,
  host_origins: HOST_ORIGINS,
  delegate: { cart: [], checkout: ['payment.credential', 'fulfillment.address_change'] },
  page_ttl_seconds: 600,
};

export async function embeddedGateway(options: DemoGatewayOptions = {}): Promise<CheckoutGateway> {
  return checkoutGateway({ ...options, tenant: { embedded: EMBEDDED, ...options.tenant } });
}

/** The path of a page URL (the gateway under test answers every host). */
export const pathOf = (url: string) => new URL(url).pathname;

export interface PageReply {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

/** Calls the page RPC of `pageUrl` as the page script does (a fresh Idempotency-Key unless `key` is null). */
export async function pageCall(
  gw: Pick<CheckoutGateway, 'app'>,
  pageUrl: string,
  operation: string,
  payload?: unknown,
  options: { key?: string | null; raw?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<PageReply> {
  const key = options.key === undefined ? randomUUID() : options.key;
  const res = await gw.app.inject({
    method: 'POST',
    url: `${pathOf(pageUrl)}/rpc`,
    headers: { 'content-type': 'application/json', ...(key !== null && { 'idempotency-key': key }), ...options.headers },
    payload: options.raw ?? JSON.stringify({ operation, ...(payload !== undefined && { payload }) }),
    ...(options.remoteAddress && { remoteAddress: options.remoteAddress }),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/**
 * A checkout client whose create is the agent's (REST) and whose every later call goes through the
 * page of the session it created, so the usual flow (walkToReady) runs from the page.
 */
export function pageClient(gw: CheckoutGateway): CheckoutClient & { pageUrl(): string } {
  let url: string | undefined;
  const page = () => {
    if (url === undefined) throw new Error('create the checkout first');
    return url;
  };
  const reply = async (call: Promise<PageReply>) => {
    const res = await call;
    return { status: res.status, body: res.body, replayed: res.headers['idempotent-replayed'] === 'true' };
  };
  return {
    transport: 'rest', // what its create speaks; the rest is the page RPC, which answers as REST does
    pageUrl: page,
    async create(checkout, options) {
      const created = await gw.client('rest').create(checkout, options);
      url = created.body.continue_url;
      return created;
    },
    get: () => reply(pageCall(gw, page(), 'get_checkout', undefined, { key: null })),
    update: (_id, checkout, options) => reply(pageCall(gw, page(), 'update_checkout', checkout, options?.key ? { key: options.key } : {})),
    complete: (_id, body, options) => reply(pageCall(gw, page(), 'complete_checkout', body, options?.key ? { key: options.key } : {})),
    cancel: (_id, options) => reply(pageCall(gw, page(), 'cancel_checkout', undefined, options?.key ? { key: options.key } : {})),
  };
}

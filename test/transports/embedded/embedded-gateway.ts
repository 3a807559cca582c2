/**
 * The demo flower shop with the embedded transport on (host origins below), and a page client:
 * what a browser showing a session's continue_url would ask the gateway for.
 */
import { randomUUID } from 'node:crypto';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import { checkoutGateway, type CheckoutGateway } from '../../capabilities/checkout/checkout-gateway.js';
import type { DemoGatewayOptions } from '../../helpers/demo-gateway.js';

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
  gw: CheckoutGateway,
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

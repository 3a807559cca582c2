/** Plain HTTP calls to the simulated store, as the fidelity tests make them (no adapter in between). */
import type { WooSimulator } from '../../../../simulators/woocommerce/server.js';

export interface StoreAnswer {
  status: number;
  token: string;
  body: any;
}

export async function storeCall(
  sim: WooSimulator,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<StoreAnswer> {
  const response = await fetch(`${sim.url}/wp-json/wc/store/v1${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...(init.token && { 'Cart-Token': init.token }) },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, token: response.headers.get('cart-token') ?? '', body: await response.json() };
}

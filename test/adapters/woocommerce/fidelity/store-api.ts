/** Plain HTTP calls to the simulated store, as the fidelity tests make them (no adapter in between), and lost answers. */
import { vi } from 'vitest';
import { BackendError } from '../../../../adapters/contract.js';
import { WooHttp } from '../../../../adapters/woocommerce/http.js';
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

/**
 * The next call of `method` on the adapter's WooHttp whose path matches reaches the store, which
 * does what it asks; its answer is lost on the way back (a timeout, a dropped connection).
 */
export function loseNextAnswer(method: 'rest' | 'store', path: RegExp): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the instance's `this`
  const real = WooHttp.prototype[method] as (this: WooHttp, ...args: unknown[]) => Promise<unknown>;
  const spy = vi.spyOn(WooHttp.prototype, method).mockImplementation(async function (this: WooHttp, ...args: unknown[]) {
    const done = await real.apply(this, args);
    if (!path.test(String(args[1]))) return done as never;
    spy.mockRestore();
    throw new BackendError(`${String(args[0])} ${String(args[1])}: the store's answer was lost`, true);
  });
}

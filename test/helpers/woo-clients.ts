/**
 * Plain HTTP clients of the WooCommerce simulator, as a store's own clients call it: the Store API
 * with Cart-Token and Nonce headers, and the REST API through WooCommerce's official client
 * library (OAuth 1.0a over plain HTTP).
 */
import { DEFAULT_KEY, type WooSimulator } from '../../simulators/woocommerce/server.js';

export interface StoreAnswer {
  status: number;
  token: string;
  nonce: string;
  headers: Headers;
  body: any;
}

export async function storeApi(
  sim: WooSimulator,
  path: string,
  init: { method?: string; token?: string; nonce?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<StoreAnswer> {
  const response = await fetch(`${sim.url}/wp-json/wc/store/v1${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      'content-type': 'application/json',
      ...(init.token && { 'Cart-Token': init.token }),
      ...(init.nonce !== undefined && { Nonce: init.nonce }),
      ...init.headers,
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    token: response.headers.get('cart-token') ?? '',
    nonce: response.headers.get('nonce') ?? '',
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

export type RestClient = {
  get(endpoint: string, params?: Record<string, unknown>): Promise<{ status: number; data: any; headers: Record<string, string> }>;
  post(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<{ status: number; data: any }>;
  put(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<{ status: number; data: any }>;
};

export async function restClient(url: string, key = DEFAULT_KEY.consumerKey, secret = DEFAULT_KEY.consumerSecret): Promise<RestClient> {
  type Ctor = new (opts: object) => RestClient;
  const loaded = (await import('@woocommerce/woocommerce-rest-api')).default as unknown as Ctor | { default: Ctor };
  const Api = typeof loaded === 'function' ? loaded : loaded.default;
  return new Api({ url, consumerKey: key, consumerSecret: secret, version: 'wc/v3' });
}

/** The REST client's refusal, as { status, data }. */
export async function refused(call: Promise<unknown>): Promise<{ status: number; data: any }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (response) return response;
    throw error;
  }
  throw new Error('the call was not refused');
}

export const ADDRESS = {
  first_name: 'Jane',
  last_name: 'Doe',
  address_1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postcode: '62704',
  country: 'US',
};

export const BILLING = { ...ADDRESS, email: 'jane.doe@example.com' };

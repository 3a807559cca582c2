/**
 * The REST API calls' authentication, checked the way WooCommerce checks it (the simulator's
 * RestAuthenticator follows class-wc-rest-authentication.php) and against what the official
 * client library (@woocommerce/woocommerce-rest-api, which the adapter used to send through) sends.
 */
import { describe, expect, it } from 'vitest';
import { WooHttp } from '../../../adapters/woocommerce/http.js';
import { RestAuth, type RestParams } from '../../../adapters/woocommerce/rest-auth.js';
import { RestAuthenticator } from '../../../simulators/woocommerce/auth.js';
import { DEFAULT_KEY, startWooSimulator } from '../../../simulators/woocommerce/server.js';

const KEY = { ...DEFAULT_KEY, permissions: 'read_write' as const };
/** Reserved characters, spaces and brackets: each must be signed as the store decodes it. */
const PARAMS: RestParams = { search: "a b!'()*[]&=+%", after: '2026-11-28T04:00:00', per_page: 100, dates_are_gmt: true };

function authenticator(home: string, https: boolean): RestAuthenticator {
  return new RestAuthenticator([KEY], { https, home: () => home, now: Date.now });
}

/** What the store reads of a request: its path, its decoded query (one value each) and its Authorization header. */
function asReceived(method: string, url: string, headers: Record<string, string>) {
  const parsed = new URL(url);
  const query: Record<string, string> = {};
  for (const [name, value] of parsed.searchParams) {
    expect(query, `${name} is sent once`).not.toHaveProperty(name);
    query[name] = value;
  }
  return { method, path: parsed.pathname, query, ...(headers.authorization && { authorization: headers.authorization }) };
}

/** The library's URL and headers for the same call, caught in its axios adapter. */
async function librarySends(storeUrl: string, queryStringAuth: boolean, params: RestParams) {
  type Ctor = new (opts: object) => { get(endpoint: string, params: object): Promise<unknown> };
  const loaded = (await import('@woocommerce/woocommerce-rest-api')).default as unknown as Ctor | { default: Ctor };
  const Api = typeof loaded === 'function' ? loaded : loaded.default;
  let sent: {
    url: string;
    params: Record<string, unknown>;
    headers: Record<string, string>;
    auth?: { username: string; password: string };
  };
  const api = new Api({
    url: storeUrl,
    consumerKey: KEY.consumerKey,
    consumerSecret: KEY.consumerSecret,
    version: 'wc/v3',
    queryStringAuth,
    axiosConfig: {
      adapter: (config: typeof sent & { headers: { toJSON(): Record<string, string> } }) => {
        sent = { url: config.url, params: config.params, headers: config.headers.toJSON(), ...(config.auth && { auth: config.auth }) };
        return Promise.resolve({ status: 200, statusText: 'OK', data: '[]', headers: {}, config });
      },
    },
  });
  await api.get('orders', params);
  return sent!;
}

describe('REST API authentication', () => {
  const home = 'http://shop.example';

  it('signs plain-HTTP calls with OAuth 1.0a as the store verifies it, every parameter signed and sent once', () => {
    const auth = new RestAuth({ storeUrl: home, consumerKey: KEY.consumerKey, consumerSecret: KEY.consumerSecret, queryStringAuth: false });
    const store = authenticator(home, false);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const { url, headers } = auth.request(method, 'wc/v3', 'orders', PARAMS);
      const received = asReceived(method, url, headers);
      expect(received.path).toBe('/wp-json/wc/v3/orders');
      expect(received.query).toMatchObject({ search: "a b!'()*[]&=+%", per_page: '100', dates_are_gmt: 'true' });
      expect(store.authenticate(received)).toEqual({ key: KEY });
      // The signature covers the parameters: one changed is refused.
      expect(() => store.authenticate({ ...received, query: { ...received.query, per_page: '5' } })).toThrow(/signature/);
    }
  });

  it('signs each call with a new nonce (the store refuses one used twice)', () => {
    const auth = new RestAuth({ storeUrl: home, consumerKey: KEY.consumerKey, consumerSecret: KEY.consumerSecret, queryStringAuth: false });
    const store = authenticator(home, false);
    for (let i = 0; i < 3; i++) {
      const { url, headers } = auth.request('GET', 'wc/v3', 'products', {});
      expect(store.authenticate(asReceived('GET', url, headers))).toEqual({ key: KEY });
    }
  });

  it('sends HTTPS calls with basic auth or the keys in the query, as the library does and the store accepts', async () => {
    const storeUrl = 'https://shop.example';
    for (const queryStringAuth of [false, true]) {
      const auth = new RestAuth({ storeUrl, consumerKey: KEY.consumerKey, consumerSecret: KEY.consumerSecret, queryStringAuth });
      const { url, headers } = auth.request('GET', 'wc/v3', 'orders', PARAMS);
      const received = asReceived('GET', url, headers);
      expect(authenticator(storeUrl, true).authenticate(received)).toEqual({ key: KEY });

      const library = await librarySends(storeUrl, queryStringAuth, PARAMS);
      expect(received.path).toBe(new URL(library.url).pathname);
      expect(received.query).toEqual(Object.fromEntries(Object.entries(library.params).map(([k, v]) => [k, String(v)])));
      const basic = library.auth && `Basic ${Buffer.from(`${library.auth.username}:${library.auth.password}`).toString('base64')}`;
      expect(headers.authorization).toBe(basic);
      expect(headers.accept).toBe(library.headers.Accept);
      expect(headers['user-agent']).toBe(library.headers['User-Agent']);
    }
  });

  it('reaches a store whose URL is given with a trailing slash, as the library did', async () => {
    const sim = await startWooSimulator();
    const http = new WooHttp({ ...DEFAULT_KEY, storeUrl: `${sim.url}/`, queryStringAuth: false, timeoutMs: 2_000 });
    try {
      expect((await http.rest('GET', 'products', { params: { per_page: 1 } })).status).toBe(200);
      expect((await http.store('GET', '/cart')).status).toBe(200);
    } finally {
      await http.close();
      await sim.close();
    }
  });
});

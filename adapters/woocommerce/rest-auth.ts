/**
 * The URL and headers of a REST API call (`wc/v3`), authenticated as WooCommerce checks an API key
 * (includes/class-wc-rest-authentication.php) and as @woocommerce/woocommerce-rest-api 1.0.2
 * sends it: over HTTPS, basic auth, or the key pair as `consumer_key` and `consumer_secret` query
 * parameters (query_string_auth); over plain HTTP, an OAuth 1.0a one-legged HMAC-SHA256 signature
 * in the query, made by `oauth-1.0a` (the signer that library uses). Not through that library
 * itself: each of its calls went through axios' request pipeline (config merging, header objects,
 * the JSON body parsed again to check it) and built a new signer whose `create-hmac` with a text key
 * throws and catches per call on Node 24, about a third of a millisecond of CPU per call in all;
 * here the signer, its key and the basic auth header are made once per store.
 */
import { createSecretKey } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { hmac } from '../kit/hmac.js';

export type RestParams = Record<string, string | number | boolean>;

interface RestKey {
  /** The store's home URL, without a trailing slash. */
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  queryStringAuth: boolean;
}

/** RFC 3986 encoding, as OAuth 1.0a and WooCommerce's check (wc_rest_urlencode_rfc3986, PHP rawurlencode) encode. */
const rfc3986 = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The library's headers, kept: a store's firewall rules may match its User-Agent. */
const HEADERS = { accept: 'application/json', 'user-agent': 'WooCommerce REST API - JS Client/1.0.2' } as const;

const pairs = (params: Array<[string, string]>): string => params.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');

export class RestAuth {
  private readonly https: boolean;
  /** HTTPS with basic auth: the Authorization header, the same for every call. */
  private readonly basic: string | undefined;
  /** Plain HTTP: the OAuth signer. */
  private readonly oauth: OAuth | undefined;

  constructor(private readonly key: RestKey) {
    this.https = /^https/i.test(key.storeUrl);
    if (this.https && !key.queryStringAuth)
      this.basic = `Basic ${Buffer.from(`${key.consumerKey}:${key.consumerSecret}`).toString('base64')}`;
    if (!this.https) {
      // WooCommerce checks with the raw consumer secret and "&" (no token): that key, a KeyObject made
      // once, signs; the text key the signer offers (the secret percent-encoded) is left unused.
      const signingKey = createSecretKey(Buffer.from(`${key.consumerSecret}&`));
      this.oauth = new OAuth({
        consumer: { key: key.consumerKey, secret: key.consumerSecret },
        signature_method: 'HMAC-SHA256',
        hash_function: (base) => hmac('sha256', signingKey, base).toString('base64'),
      });
    }
  }

  /** The call's URL (`endpoint` under /wp-json/`version`/) and headers. */
  request(method: string, version: string, endpoint: string, params: RestParams): { url: string; headers: Record<string, string> } {
    const base = `${this.key.storeUrl}/wp-json/${version}/${endpoint}`;
    const query = Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]);
    if (this.basic) return { url: query.length ? `${base}?${pairs(query)}` : base, headers: { ...HEADERS, authorization: this.basic } };
    if (this.https) {
      const keys: Array<[string, string]> = [
        ['consumer_key', this.key.consumerKey],
        ['consumer_secret', this.key.consumerSecret],
      ];
      return { url: `${base}?${pairs([...keys, ...query])}`, headers: { ...HEADERS } };
    }
    return { url: `${base}?${this.signed(method, base, query)}`, headers: { ...HEADERS } };
  }

  /**
   * The query with its OAuth parameters, the signature over both (the store recomputes it from the
   * query it receives). The signer hands back the call's own parameters merged in (it merges into
   * its result): only the `oauth_` ones are added, so each parameter is sent once.
   */
  private signed(method: string, base: string, query: Array<[string, string]>): string {
    const signed = Object.entries(this.oauth!.authorize({ url: base, method, data: Object.fromEntries(query) }));
    return pairs([...query, ...signed.flatMap(([k, v]): Array<[string, string]> => (k.startsWith('oauth_') ? [[k, String(v)]] : []))]);
  }
}

/**
 * The URL and headers of a REST API call (`wc/v3`), authenticated as WooCommerce checks an API key
 * (includes/class-wc-rest-authentication.php) and as @woocommerce/woocommerce-rest-api 1.0.2
 * sends it: over HTTPS, basic auth, or the key pair as `consumer_key` and `consumer_secret` query
 * parameters (query_string_auth); over plain HTTP, an OAuth 1.0a one-legged HMAC-SHA256 signature
 * in the query. Written here rather than through that library: each of its calls went through
 * axios' request pipeline (config merging, header objects, the JSON body parsed again to check it)
 * and built a new OAuth signer whose createHmac with a text key throws and catches per call on
 * Node 24, about a third of a millisecond of CPU per call in all; here the signing key and the
 * basic auth header are made once per store.
 */
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { hmac } from '../kit/hmac.js';

export type RestParams = Record<string, string | number | boolean>;

export interface RestKey {
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
  /** Plain HTTP: the OAuth signing key (the consumer secret and "&", no token). */
  private readonly signingKey: KeyObject | undefined;

  constructor(private readonly key: RestKey) {
    this.https = /^https/i.test(key.storeUrl);
    if (this.https && !key.queryStringAuth)
      this.basic = `Basic ${Buffer.from(`${key.consumerKey}:${key.consumerSecret}`).toString('base64')}`;
    if (!this.https) this.signingKey = createSecretKey(Buffer.from(`${key.consumerSecret}&`));
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
   * The query with its OAuth parameters: the signature is over the method, the encoded URL and the
   * parameters sorted by name, each encoded, joined and encoded again (as the store recomputes it).
   */
  private signed(method: string, base: string, query: Array<[string, string]>): string {
    const params: Array<[string, string]> = [
      ...query,
      ['oauth_consumer_key', this.key.consumerKey],
      ['oauth_nonce', randomUUID()],
      ['oauth_signature_method', 'HMAC-SHA256'],
      ['oauth_timestamp', String(Math.floor(Date.now() / 1000))],
      ['oauth_version', '1.0'],
    ];
    params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const text = pairs(params);
    const signature = hmac('sha256', this.signingKey!, `${method}&${rfc3986(base)}&${rfc3986(text)}`).toString('base64');
    return `${text}&oauth_signature=${rfc3986(signature)}`;
  }
}

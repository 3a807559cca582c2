/**
 * REST API key authentication as WooCommerce performs it
 * (plugins/woocommerce/includes/class-wc-rest-authentication.php):
 * - over HTTPS (`is_ssl()`), HTTP basic auth with consumer key and secret, or the same pair as
 *   `consumer_key` / `consumer_secret` query parameters;
 * - over plain HTTP, OAuth 1.0a one-legged: HMAC-SHA1 or HMAC-SHA256 over
 *   METHOD & rawurlencode(home URL + path) & the sorted, RFC 3986-encoded query parameters,
 *   keyed with `consumer_secret&`; the timestamp within 15 minutes and each nonce used once.
 * A request without credentials is anonymous and fails the route's permission check; a request
 * with wrong credentials is refused with `woocommerce_rest_authentication_error` (401).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WpError } from './wp-error.js';

export interface ApiKey {
  consumerKey: string;
  consumerSecret: string;
  permissions: 'read' | 'write' | 'read_write';
}

export interface AuthRequest {
  method: string;
  /** Path as requested, without the query. */
  path: string;
  /** Decoded query parameters (single values). */
  query: Record<string, string>;
  authorization?: string;
}

export type AuthOutcome = { key: ApiKey } | { anonymous: true };

/** PHP rawurlencode as wc_rest_urlencode_rfc3986 uses it (everything but A-Z a-z 0-9 - _ . ~). */
const rfc3986 = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const authError = (message: string) => new WpError(401, 'woocommerce_rest_authentication_error', message);

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class RestAuthenticator {
  private readonly nonces = new Map<string, number>();

  constructor(
    private readonly keys: ApiKey[],
    private readonly options: { https: boolean; home: () => string; now: () => number },
  ) {}

  authenticate(request: AuthRequest): AuthOutcome {
    if (this.options.https) {
      const basic = this.basic(request);
      if (basic) return basic;
    }
    return this.oauth(request);
  }

  private find(consumerKey: string): ApiKey {
    const key = this.keys.find((k) => sameSecret(k.consumerKey, consumerKey));
    if (!key) throw authError('Consumer key is invalid.');
    return key;
  }

  private basic(request: AuthRequest): AuthOutcome | undefined {
    let pair: [string, string] | undefined;
    const header = request.authorization;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) pair = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    } else if (request.query.consumer_key && request.query.consumer_secret) {
      pair = [request.query.consumer_key, request.query.consumer_secret];
    }
    if (!pair) return undefined;
    const key = this.find(pair[0]);
    if (!sameSecret(key.consumerSecret, pair[1])) throw authError('Consumer secret is invalid.');
    return { key };
  }

  private oauth(request: AuthRequest): AuthOutcome {
    const q = request.query;
    if (!q.oauth_consumer_key) return { anonymous: true };
    for (const param of ['oauth_consumer_key', 'oauth_timestamp', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method']) {
      if (!q[param]) throw authError(`Missing OAuth parameter ${param}`);
    }
    const key = this.find(q.oauth_consumer_key);
    const method = q.oauth_signature_method!;
    if (method !== 'HMAC-SHA1' && method !== 'HMAC-SHA256') throw authError('Invalid signature - signature method is invalid.');
    const params = Object.entries(q)
      .filter(([k]) => k !== 'oauth_signature')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const joined = params.map(([k, v]) => rfc3986(`${rfc3986(k)}=${rfc3986(v)}`)).join('%26');
    const base = `${request.method.toUpperCase()}&${rfc3986(`${this.options.home()}${request.path}`)}&${joined}`;
    const expected = createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', `${key.consumerSecret}&`)
      .update(base)
      .digest('base64');
    if (!sameSecret(expected, q.oauth_signature!)) throw authError('Invalid signature - provided signature does not match.');
    this.checkTimestampAndNonce(key, Number(q.oauth_timestamp), q.oauth_nonce!);
    return { key };
  }

  private checkTimestampAndNonce(key: ApiKey, timestamp: number, nonce: string): void {
    const now = Math.floor(this.options.now() / 1000);
    const window = 15 * 60;
    if (!Number.isFinite(timestamp) || timestamp < now - window || timestamp > now + window) throw authError('Invalid timestamp.');
    for (const [seen, at] of this.nonces) if (at < now - window) this.nonces.delete(seen);
    const id = `${key.consumerKey}:${nonce}`;
    if (this.nonces.has(id)) throw authError('Invalid nonce - nonce has already been used.');
    this.nonces.set(id, timestamp);
  }
}

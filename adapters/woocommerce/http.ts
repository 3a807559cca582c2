/**
 * The two doors into a WooCommerce store, each call under a deadline:
 * - the REST API (`wc/v3`), authenticated as WooCommerce expects (rest-auth.ts: basic auth or
 *   query-string keys over HTTPS, OAuth 1.0a signatures over plain HTTP);
 * - the Store API (`wc/store/v1`), plain HTTP with a Cart-Token header (and, for the checkout,
 *   the `Nonce` header the store's last answer carried).
 * Both travel through the kit's client (adapters/kit/http-client.ts: kept-alive connections, the
 * call's deadline, the body cap).
 * Answers are read as text and judged before use: 429 (host `Retry-After` or the Store API's
 * `RateLimit-Retry-After`) and 5xx are retryable BackendErrors; an HTML page, a PHP warning in
 * front of the JSON or a cut-off body is a InvalidAnswerError; a refused API key is a
 * final BackendError that says which key permission to check. Other 4xx come back to the caller.
 */
import { BackendError, InvalidAnswerError } from '../contract.js';
import { HttpClient, retryAfterMs, type HttpAnswer } from '../kit/http-client.js';
import { RestAuth, type RestParams } from './rest-auth.js';

export interface WooResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string>;
}

/** A WordPress REST error body. */
export interface WpErrorBody {
  code: string;
  message: string;
  data?: { status?: number } & Record<string, unknown>;
}

export const isWpError = (body: unknown): body is WpErrorBody =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as WpErrorBody).code === 'string' &&
  typeof (body as WpErrorBody).message === 'string';

export interface WooHttpOptions {
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  queryStringAuth: boolean;
  timeoutMs: number;
}

/** Judges a store answer; `what` names the call in error messages (never a credential). */
function decode(what: string, status: number, headers: Record<string, string>, text: string, rest: boolean): WooResponse {
  if (status === 429) {
    // The Store API's rate limiter names its wait RateLimit-Retry-After; the host's is Retry-After.
    const wait = retryAfterMs(headers['ratelimit-retry-after'] ?? headers['retry-after'], Date.now());
    throw new BackendError(`${what}: the store is throttling requests (429)`, true, wait);
  }
  if (status >= 500) throw new BackendError(`${what}: the store answered ${status}`, true);
  const start = text.trimStart();
  if (!start.startsWith('{') && !start.startsWith('[')) {
    if (/^<(!doctype|html|head|body)/i.test(start)) {
      if (status === 404) {
        throw new InvalidAnswerError(
          `${what}: the store answered a web page (404) where its REST API should be; ` +
            'WordPress permalinks must not be "Plain" (Settings > Permalinks)',
        );
      }
      throw new InvalidAnswerError(`${what}: the store answered an HTML page (status ${status}) instead of JSON`);
    }
    if (/<b>(warning|notice|deprecated|fatal error)<\/b>|^(PHP )?(Warning|Notice|Deprecated|Fatal error):/i.test(start)) {
      throw new InvalidAnswerError(
        `${what}: a PHP message is printed in front of the store's JSON ` +
          '(a plugin error with display_errors on; set WP_DEBUG_DISPLAY to false)',
      );
    }
    throw new InvalidAnswerError(`${what}: the store's answer (status ${status}) is not JSON`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidAnswerError(`${what}: the store's JSON answer is cut short or malformed`);
  }
  if (rest && (status === 401 || status === 403) && isWpError(body)) {
    const permission = status === 401 && /write/.test(body.message) ? 'read/write' : 'read';
    throw new BackendError(
      `${what}: the store refused the REST API key (${body.code}: ${body.message}); ` +
        `check the consumer key and secret and that the key has ${permission} permission`,
      false,
    );
  }
  return { status, body, headers };
}

/** A refusal the adapter did not expect (a 4xx with a WordPress error): final, with the store's words. */
export function unexpected(what: string, body: unknown): BackendError {
  const detail = isWpError(body) ? `${body.code}: ${body.message}` : 'an error';
  return new BackendError(`${what} answered ${detail}`, false);
}

function readText(what: string, answer: HttpAnswer): string {
  if (answer.text === undefined) throw new InvalidAnswerError(`${what}: the store's answer is too large or was cut off`);
  return answer.text;
}

export class WooHttp {
  private readonly http: HttpClient;

  private readonly auth: RestAuth;
  /** The Store API's root URL. */
  private readonly storeApi: string;

  constructor(options: WooHttpOptions) {
    this.http = new HttpClient({ timeoutMs: options.timeoutMs, capsCallerDeadline: true });
    const storeUrl = options.storeUrl.replace(/\/+$/, '');
    this.auth = new RestAuth({ ...options, storeUrl });
    this.storeApi = `${storeUrl}/wp-json/wc/store/v1`;
  }

  /** Closes the kept-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  /** A `wc/v3` call; `endpoint` is relative to /wp-json/wc/v3/ (e.g. "products"). */
  async rest<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    endpoint: string,
    request: { params?: RestParams; data?: unknown; version?: string } = {},
    signal?: AbortSignal,
  ): Promise<WooResponse<T>> {
    const version = request.version ?? 'wc/v3';
    const what = `${method} ${version}/${endpoint}`;
    const { url, headers } = this.auth.request(method, version, endpoint, request.params ?? {});
    // A write always has a body (an empty object at least); reads have none.
    const body = method === 'POST' || method === 'PUT' ? JSON.stringify(request.data ?? {}) : undefined;
    if (body !== undefined) headers['content-type'] = 'application/json;charset=utf-8';
    const answer = await this.http.send(what, { method, url, headers, ...(body !== undefined && { body }), signal });
    return decode(what, answer.status, answer.headers, readText(what, answer), true) as WooResponse<T>;
  }

  /** A `wc/store/v1` call with the cart's token (and a nonce, for routes that always want one); `path` like "/cart/add-item". */
  async store<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    request: { token?: string; nonce?: string; body?: unknown } = {},
    signal?: AbortSignal,
  ): Promise<WooResponse<T>> {
    const what = `${method} wc/store/v1${path}`;
    // undici follows no redirect: a redirected Store API is the 3xx page, judged like any answer.
    const answer = await this.http.send(what, {
      method,
      url: `${this.storeApi}${path}`,
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined && { 'content-type': 'application/json' }),
        ...(request.token && { 'cart-token': request.token }),
        ...(request.nonce && { nonce: request.nonce }),
      },
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      signal,
    });
    return decode(what, answer.status, answer.headers, readText(what, answer), false) as WooResponse<T>;
  }
}

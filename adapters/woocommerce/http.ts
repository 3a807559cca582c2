/**
 * The two doors into a WooCommerce store, each call under a deadline:
 * - the REST API (`wc/v3`) through @woocommerce/woocommerce-rest-api, which authenticates as
 *   WooCommerce expects (basic auth or query-string keys over HTTPS, OAuth 1.0a signatures over
 *   plain HTTP);
 * - the Store API (`wc/store/v1`), plain HTTP with a Cart-Token header (the library does not
 *   cover it).
 * Both travel through the kit's client (adapters/kit/http-client.ts: kept-alive connections, the
 * call's deadline, the body cap): the library's axios is handed it as its adapter, in place of
 * axios' node:http transport, which cost about three times a Store API call's CPU.
 * Answers are read as text and judged before use: 429 (host `Retry-After` or the Store API's
 * `RateLimit-Retry-After`) and 5xx are retryable BackendErrors; an HTML page, a PHP warning in
 * front of the JSON or a cut-off body is a InvalidAnswerError; a refused API key is a
 * final BackendError that says which key permission to check. Other 4xx come back to the caller.
 */
import { BackendError, InvalidAnswerError } from '../contract.js';
import { HttpClient, retryAfterMs, type HttpAnswer } from '../kit/http-client.js';

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

interface RestLibrary {
  get(endpoint: string, params?: object): Promise<AxiosLike>;
  post(endpoint: string, data: unknown, params?: object): Promise<AxiosLike>;
  put(endpoint: string, data: unknown, params?: object): Promise<AxiosLike>;
  delete(endpoint: string, params?: object): Promise<AxiosLike>;
}

/** What axios hands its adapter: the library's URL, query parameters (OAuth's or the keys), headers and JSON text. */
interface AxiosRequest {
  method: string;
  url: string;
  params?: Record<string, string | number | boolean | undefined>;
  /** AxiosHeaders: toJSON(true) is every set header as a string (a list joined with ", "). */
  headers: { toJSON(asStrings: true): Record<string, string> };
  auth?: { username: string; password: string };
  data?: unknown;
}

interface AxiosLike {
  status: number;
  data: string;
  headers: Record<string, string>;
}

type RestLibraryClass = new (options: object) => RestLibrary;

let libraryClass: Promise<RestLibraryClass> | undefined;

/** The package is CommonJS with `exports.default`: Node's ESM import nests it once more than bundlers do. */
function loadLibrary(): Promise<RestLibraryClass> {
  libraryClass ??= import('@woocommerce/woocommerce-rest-api').then((module) => {
    const loaded = module.default as unknown as RestLibraryClass | { default: RestLibraryClass };
    return typeof loaded === 'function' ? loaded : loaded.default;
  });
  return libraryClass;
}

export interface WooHttpOptions {
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  queryStringAuth: boolean;
  timeoutMs: number;
}

/** The URL axios would send: the library's, its query parameters appended. */
function withQuery(url: string, params: AxiosRequest['params'] = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, String(value));
  const text = query.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

/** The library's headers, with basic auth (HTTPS without query-string keys) as axios' own transport writes it. */
function requestHeaders(config: AxiosRequest): Record<string, string> {
  const headers = config.headers.toJSON(true);
  if (config.auth) headers.authorization = `Basic ${Buffer.from(`${config.auth.username}:${config.auth.password}`).toString('base64')}`;
  return headers;
}

const untransformed = [(data: unknown) => data];

/** Judges a store answer; `what` names the call in error messages (never a credential). */
export function decode(what: string, status: number, headers: Record<string, string>, text: string, rest: boolean): WooResponse {
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

  constructor(private readonly options: WooHttpOptions) {
    this.http = new HttpClient({ timeoutMs: options.timeoutMs, capsCallerDeadline: true });
  }

  /** Closes the kept-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  /** A `wc/v3` call; `endpoint` is relative to /wp-json/wc/v3/ (e.g. "products"). */
  async rest<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    endpoint: string,
    request: { params?: Record<string, string | number | boolean>; data?: unknown; version?: string } = {},
    signal?: AbortSignal,
  ): Promise<WooResponse<T>> {
    const Library = await loadLibrary();
    const version = request.version ?? 'wc/v3';
    const what = `${method} ${version}/${endpoint}`;
    const client = new Library({
      url: this.options.storeUrl,
      consumerKey: this.options.consumerKey,
      consumerSecret: this.options.consumerSecret,
      version,
      queryStringAuth: this.options.queryStringAuth,
      // The answer stays text (identity transformResponse), so decode judges HTML and PHP warnings itself.
      axiosConfig: { adapter: (config: AxiosRequest) => this.send(what, config, signal), transformResponse: untransformed },
    });
    const params = request.params ?? {};
    const send = {
      GET: () => client.get(endpoint, params),
      POST: () => client.post(endpoint, request.data ?? {}, params),
      PUT: () => client.put(endpoint, request.data ?? {}, params),
      DELETE: () => client.delete(endpoint, params),
    }[method];
    // axios hands back the adapter's headers as an AxiosHeaders: spread into a plain record again.
    const { status, headers, data } = await send();
    return decode(what, status, { ...headers }, data, true) as WooResponse<T>;
  }

  /** axios' adapter for the library: its request through the kit's client (which rejects only with no answer). */
  private async send(what: string, config: AxiosRequest, signal: AbortSignal | undefined): Promise<AxiosLike> {
    const answer = await this.http.send(what, {
      method: config.method.toUpperCase(),
      url: withQuery(config.url, config.params),
      headers: requestHeaders(config),
      ...(typeof config.data === 'string' && { body: config.data }),
      signal,
    });
    return { status: answer.status, headers: answer.headers, data: readText(what, answer) };
  }

  /** A `wc/store/v1` call with the cart's token; `path` like "/cart/add-item". */
  async store<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    request: { token?: string; body?: unknown } = {},
    signal?: AbortSignal,
  ): Promise<WooResponse<T>> {
    const what = `${method} wc/store/v1${path}`;
    // undici follows no redirect: a redirected Store API is the 3xx page, judged like any answer.
    const answer = await this.http.send(what, {
      method,
      url: `${this.options.storeUrl.replace(/\/+$/, '')}/wp-json/wc/store/v1${path}`,
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined && { 'content-type': 'application/json' }),
        ...(request.token && { 'cart-token': request.token }),
      },
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      signal,
    });
    return decode(what, answer.status, answer.headers, readText(what, answer), false) as WooResponse<T>;
  }
}

/**
 * HTTP calls to the store: the URL from the operation's path template and query, the JSON body,
 * the auth headers, and the store's answer sorted into what the gateway can act on:
 * - 2xx (and the statuses an operation accepts): the parsed JSON body, for the response mapping;
 * - 404 where the operation allows it (an expired cart, an unknown order): `not_found`;
 * - 429 and 5xx, or no connection: retryable BackendError (honouring Retry-After), for the
 *   resilient wrapper's backoff; 401/403 and other 4xx: final BackendError;
 * - a body that is not JSON (an HTML error page, cut-off JSON) or is too large: InvalidAnswerError.
 * The exchange itself (kept-alive connections, deadline, body cap, Retry-After) is the kit's
 * (adapters/kit/http-client.ts); timeouts are the resilient wrapper's: it aborts `signal` at the
 * deadline (calls without one, such as `npm run rest -- check`, get the client's own).
 */
import { BackendError, InvalidAnswerError } from '../contract.js';
import { HttpClient, unavailable } from '../kit/http-client.js';
import type { Signer } from './auth.js';

export interface StoreRequest {
  method: string;
  /** Path template relative to the base URL, `{name}` / `{a.b}` filled from `vars`. */
  path: string;
  vars: unknown;
  query?: unknown;
  body?: unknown;
  /** Per-call headers (lower-case names), from the operation's `headers` mapping. */
  headers?: Record<string, string>;
}

export interface StoreAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface StoreClientOptions {
  baseUrl: string;
  sign: Signer;
  headers: Record<string, string>;
  now: () => number;
  tenant: string;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Deadline of a call the gateway gives none (the check command's). */
const TIMEOUT_MS = 30_000;

function valueAt(input: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      input,
    );
}

/** `/carts/{handle}` with vars {handle: "c/1"} -> `/carts/c%2F1`. */
export function fillPath(template: string, vars: unknown): string {
  return template.replace(/\{([\w.]+)\}/g, (_, name: string) => {
    const value = valueAt(vars, name);
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new BackendError(`the path ${template} needs a value for {${name}}`, false);
    return encodeURIComponent(String(value));
  });
}

export function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  if (typeof query !== 'object' || Array.isArray(query)) throw new Error('the query mapping must give an object');
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (typeof item === 'object') throw new Error(`query parameter ${name} must be a string, number or boolean`);
      params.append(name, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class StoreClient {
  private readonly base: string;
  private readonly http: HttpClient;

  constructor(private readonly options: StoreClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.http = new HttpClient({ timeoutMs: TIMEOUT_MS, maxBodyBytes: MAX_BODY_BYTES });
  }

  /** Closes the kept-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  /** `method` names the contract method, for messages. */
  async send(method: string, request: StoreRequest, accept: readonly number[], signal?: AbortSignal): Promise<StoreAnswer | 'not_found'> {
    const { tenant, now } = this.options;
    let url: URL;
    try {
      const path = fillPath(request.path, request.vars);
      // An absolute path (a health check outside the API root) is used as it is.
      url = new URL((/^https?:\/\//.test(path) ? path : this.base + path) + queryString(request.query));
    } catch (error) {
      throw error instanceof BackendError ? error : new BackendError(`tenant ${tenant}: ${method}: ${(error as Error).message}`, false);
    }
    const body = request.body === undefined ? '' : JSON.stringify(request.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...request.headers,
      ...(request.body !== undefined && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
      // The signature covers the path and query as sent, relative to the host.
      ...this.options.sign({ method: request.method, target: url.pathname + url.search, body }, now()),
    };
    const answers = (status: number) => (status >= 200 && status < 300) || (accept.includes(status) && status !== 404);
    const what = `tenant ${tenant}: ${method}`;
    const raw = await this.http.send(what, { method: request.method, url, headers, body, signal, readBody: answers });
    const { status } = raw;
    if (status === 404 && accept.includes(404)) return 'not_found';
    if (!answers(status)) {
      const retryable = unavailable(what, raw, now());
      if (retryable) throw retryable;
      if (status === 401 || status === 403)
        throw new BackendError(`tenant ${tenant}: ${method}: the store refused the gateway's credentials (${status})`, false);
      throw new BackendError(`tenant ${tenant}: ${method}: the store refused the call (${status})`, false);
    }
    const text = raw.text;
    if (text === undefined) {
      if (signal?.aborted) throw signal.reason;
      throw new InvalidAnswerError(`tenant ${tenant}: ${method}: the store's answer is larger than ${MAX_BODY_BYTES} bytes or was cut off`);
    }
    const type = raw.headers['content-type'] ?? '';
    if (text.trim() === '') return { status, headers: raw.headers, body: undefined };
    if (!/[/+]json\b/i.test(type))
      throw new InvalidAnswerError(
        `tenant ${tenant}: ${method}: the store answered ${status} with ${type.split(';')[0] || 'no content type'} instead of JSON`,
      );
    try {
      return { status, headers: raw.headers, body: JSON.parse(text) as unknown };
    } catch {
      throw new InvalidAnswerError(`tenant ${tenant}: ${method}: the store answered ${status} with malformed JSON`);
    }
  }
}

/**
 * HTTP calls to the store: the URL from the operation's path template and query, the JSON body,
 * the auth headers, and the store's answer sorted into what the gateway can act on:
 * - 2xx (and the statuses an operation accepts): the parsed JSON body, for the response mapping;
 * - 404 where the operation allows it (an expired cart, an unknown order): `not_found`;
 * - 429 and 5xx, or no connection: retryable BackendError (honouring Retry-After), for the
 *   resilient wrapper's backoff; 401/403 and other 4xx: final BackendError;
 * - a body that is not JSON (an HTML error page, cut-off JSON) or is too large: InvalidAnswerError.
 * Timeouts are the resilient wrapper's: it aborts `signal` at the deadline.
 */
import { BackendError, InvalidAnswerError } from '../contract.js';
import type { Signer } from './auth.js';

export interface StoreRequest {
  method: string;
  /** Path template relative to the base URL, `{name}` / `{a.b}` filled from `vars`. */
  path: string;
  vars: unknown;
  query?: unknown;
  body?: unknown;
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
const MAX_RETRY_AFTER_MS = 60_000;

function valueAt(input: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), input);
}

/** `/carts/{handle}` with vars {handle: "c/1"} -> `/carts/c%2F1`. */
export function fillPath(template: string, vars: unknown): string {
  return template.replace(/\{([\w.]+)\}/g, (_, name: string) => {
    const value = valueAt(vars, name);
    if (typeof value !== 'string' && typeof value !== 'number') throw new BackendError(`the path ${template} needs a value for {${name}}`, false);
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

/** Retry-After in seconds or as an HTTP date, capped. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - nowMs;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

async function readCapped(response: Response): Promise<string> {
  const length = response.headers.get('content-length');
  const declared = Number(length ?? 0);
  if (declared > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw new Error('too large');
  }
  // A declared length is enforced by the HTTP client; only a chunked body is read piece by piece.
  if (length !== null) return response.text();
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('too large');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class StoreClient {
  private readonly base: string;

  constructor(private readonly options: StoreClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** The target (path and query) as sent, relative to the host: what an HMAC signature covers. */
  private target(url: string): string {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  }

  /** `method` names the contract method, for messages. */
  async send(method: string, request: StoreRequest, accept: readonly number[], signal?: AbortSignal): Promise<StoreAnswer | 'not_found'> {
    const { tenant, now } = this.options;
    let url: string;
    try {
      url = this.base + fillPath(request.path, request.vars) + queryString(request.query);
    } catch (error) {
      throw error instanceof BackendError ? error : new BackendError(`tenant ${tenant}: ${method}: ${(error as Error).message}`, false);
    }
    const body = request.body === undefined ? '' : JSON.stringify(request.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
      ...this.options.sign({ method: request.method, target: this.target(url), body }, now()),
    };
    let response: Response;
    try {
      response = await fetch(url, { method: request.method, headers, ...(request.body !== undefined && { body }), ...(signal && { signal }) });
    } catch (error) {
      if (signal?.aborted) throw error;
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new BackendError(`tenant ${tenant}: ${method}: the store is unreachable (${code})`, true);
    }
    const { status } = response;
    if (status === 404 && accept.includes(404)) {
      await response.body?.cancel();
      return 'not_found';
    }
    const answers = (status >= 200 && status < 300) || accept.includes(status);
    if (!answers) {
      await response.body?.cancel().catch(() => undefined);
      if (status === 429 || status >= 500) {
        const wait = retryAfterMs(response.headers.get('retry-after'), now());
        throw new BackendError(`tenant ${tenant}: ${method}: the store answered ${status}${status === 429 ? ' (throttled)' : ''}`, true, wait);
      }
      if (status === 401 || status === 403) throw new BackendError(`tenant ${tenant}: ${method}: the store refused the gateway's credentials (${status})`, false);
      throw new BackendError(`tenant ${tenant}: ${method}: the store refused the call (${status})`, false);
    }
    let text: string;
    try {
      text = await readCapped(response);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new InvalidAnswerError(`tenant ${tenant}: ${method}: the store's answer is larger than ${MAX_BODY_BYTES} bytes or was cut off`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (text.trim() === '') return { status, headers: Object.fromEntries(response.headers), body: undefined };
    if (!/[/+]json\b/i.test(type)) throw new InvalidAnswerError(`tenant ${tenant}: ${method}: the store answered ${status} with ${type.split(';')[0] || 'no content type'} instead of JSON`);
    try {
      return { status, headers: Object.fromEntries(response.headers), body: JSON.parse(text) as unknown };
    } catch {
      throw new InvalidAnswerError(`tenant ${tenant}: ${method}: the store answered ${status} with malformed JSON`);
    }
  }
}

/**
 * HTTP calls to the store: the URL from the operation's path template and query, the JSON body,
 * the auth headers, and the store's answer sorted into what the gateway can act on:
 * - 2xx (and the statuses an operation accepts): the parsed JSON body, for the response mapping;
 * - 404 where the operation allows it (an expired cart, an unknown order): `not_found`;
 * - 429 and 5xx, or no connection: retryable BackendError (honouring Retry-After), for the
 *   resilient wrapper's backoff; 401/403 and other 4xx: final BackendError;
 * - a body that is not JSON (an HTML error page, cut-off JSON) or is too large: InvalidAnswerError.
 * Timeouts are the resilient wrapper's: it aborts `signal` at the deadline. node:http with a
 * keep-alive agent rather than fetch: fetch's web streams cost about three times the CPU per call
 * (profiled under the bench), and nock still plays a failing store in tests.
 */
import http, { Agent as HttpAgent } from 'node:http';
import https, { Agent as HttpsAgent } from 'node:https';
import { BackendError, InvalidAnswerError } from '../contract.js';
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
const MAX_RETRY_AFTER_MS = 60_000;

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

/** Retry-After in seconds or as an HTTP date, capped. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - nowMs;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** Undefined when the store's answer was cut off or larger than the cap. */
  text?: string;
}

/** One HTTP exchange over the keep-alive agent; the body is read whole (up to the cap) unless `skipBody`. */
function exchange(
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string; agent: HttpAgent | HttpsAgent; signal?: AbortSignal },
  skipBody: (status: number) => boolean,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Looked up per call, not bound at import: HTTP mocks (nock) replace the module's function.
    const send = url.protocol === 'https:' ? https.request : http.request;
    const req = send(
      url,
      { method: init.method, headers: init.headers, agent: init.agent, ...(init.signal && { signal: init.signal }) },
      (res) => {
        const status = res.statusCode ?? 0;
        const headers = Object.fromEntries(
          Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
        );
        if (skipBody(status)) {
          res.resume();
          resolve({ status, headers });
          return;
        }
        if (Number(headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
          res.destroy();
          resolve({ status, headers });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) res.destroy();
          else chunks.push(chunk);
        });
        res.once('end', () => resolve({ status, headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.once('close', () => {
          if (!res.complete) resolve({ status, headers });
        });
        res.once('error', () => undefined); // 'close' settles it
      },
    );
    req.once('error', reject);
    req.end(init.body || undefined);
  });
}

export class StoreClient {
  private readonly base: string;
  /** Kept-alive connections to the store, so a call rarely pays for a TCP (or TLS) handshake. */
  private readonly agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: 128 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 128 }),
  };

  constructor(private readonly options: StoreClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  private agent(url: URL): HttpAgent | HttpsAgent {
    return url.protocol === 'https:' ? this.agents.https : this.agents.http;
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
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
    let raw: RawAnswer;
    try {
      raw = await exchange(
        url,
        { method: request.method, headers, body, agent: this.agent(url), ...(signal && { signal }) },
        (status) => !answers(status),
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new BackendError(
        `tenant ${tenant}: ${method}: the store is unreachable (${(error as NodeJS.ErrnoException).code ?? (error as Error).name})`,
        true,
      );
    }
    const { status } = raw;
    if (status === 404 && accept.includes(404)) return 'not_found';
    if (!answers(status)) {
      if (status === 429 || status >= 500) {
        const wait = retryAfterMs(raw.headers['retry-after'] ?? null, now());
        throw new BackendError(
          `tenant ${tenant}: ${method}: the store answered ${status}${status === 429 ? ' (throttled)' : ''}`,
          true,
          wait,
        );
      }
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

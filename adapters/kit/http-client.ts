/**
 * HTTP to a store, the part every HTTP-backed adapter shares: kept-alive connections (an undici
 * Agent per client, so a call rarely pays for a TCP or TLS handshake), a deadline on every call
 * (the caller's signal, else the client's timeout; or both, for a platform whose tenants cap
 * every call), the body read whole up to a cap, and the
 * failures that mean the same on every platform turned into the contract's errors: no connection
 * and 429/5xx are retryable BackendErrors (with the store's Retry-After). Its messages hold the
 * caller's `what`, a status and an error code, never a URL, header or body, so no credential
 * (the gateway's resilient wrapper also scrubs the tenant's credentials from every message).
 * What a platform does with an answer (auth, GraphQL, its error bodies) stays in its folder.
 * undici's request API rather than fetch: no web streams, about a third of the CPU per call.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { BackendError } from '../contract.js';

export interface HttpClientOptions {
  /** Deadline of a call whose caller gives no signal. */
  timeoutMs: number;
  /** Also applies `timeoutMs` to calls that have the caller's signal (a tenant's cap on every call). */
  capsCallerDeadline?: boolean;
  /** Largest body read; a larger or cut-off one comes back without `text`. Default 8 MiB. */
  maxBodyBytes?: number;
}

export interface HttpRequest {
  method: string;
  url: URL | string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** Whether the body of an answer with this status is wanted; default every status. */
  readBody?: (status: number) => boolean;
}

export interface HttpAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as text; undefined when not read, larger than the cap, or cut off. */
  text?: string;
}

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;
/** Longest Retry-After honoured: a store asking for more is treated as down for a minute. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After (or a platform's variant of it): seconds or an HTTP date, from now, capped. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (!value?.trim()) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - nowMs;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

/** 429 and 5xx: retryable, after the store's Retry-After when it sends one; undefined otherwise. */
export function unavailable(what: string, answer: HttpAnswer, nowMs: number, retryAfterHeader = 'retry-after'): BackendError | undefined {
  const { status } = answer;
  if (status !== 429 && status < 500) return undefined;
  const wait = retryAfterMs(answer.headers[retryAfterHeader] ?? answer.headers['retry-after'], nowMs);
  return new BackendError(`${what}: the store answered ${status}${status === 429 ? ' (throttled)' : ''}`, true, wait);
}

/** No answer at all (refused, reset, timed out): retryable, named by the error's code, never its text. */
export function unreachable(what: string, error: unknown): BackendError {
  const { code, name } = (error ?? {}) as { code?: string; name?: string };
  return new BackendError(`${what}: the store is unreachable (${code ?? name ?? 'error'})`, true);
}

/** A call's deadline: its signal, and `clear` to call once the call is over. */
export interface Deadline {
  signal: AbortSignal;
  clear(): void;
}

/**
 * The caller's signal and the client's timeout, whichever fires first. A timer the call clears,
 * not AbortSignal.timeout, which cannot be stopped: every call's would still fire `timeoutMs`
 * later, building an abort error and dispatching it for a call long answered.
 */
export function deadline(signal: AbortSignal | undefined, timeoutMs: number): Deadline {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
  timer.unref();
  return { signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal, clear: () => clearTimeout(timer) };
}

/** Statuses whose Response must have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

const isRecord = (headers: RequestInit['headers']): headers is Record<string, string> =>
  headers !== undefined && !Array.isArray(headers) && !(headers instanceof Headers);

const flat = (headers: Record<string, string | string[] | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );

export class HttpClient {
  /** Kept-alive connections; also the dispatcher for libraries that take a fetch (see `fetch`). */
  readonly agent: Agent;
  private readonly maxBody: number;

  constructor(private readonly options: HttpClientOptions) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  }

  /**
   * One exchange. Resolves any status; rejects only when there is no answer: a retryable
   * BackendError naming `what` (the store is unreachable or too slow), or the caller's own abort
   * reason when the caller gave up.
   */
  async send(what: string, call: HttpRequest): Promise<HttpAnswer> {
    const due = this.deadline(call.signal);
    try {
      return await this.exchange(what, call, due.signal);
    } finally {
      due.clear();
    }
  }

  private async exchange(what: string, call: HttpRequest, signal: AbortSignal): Promise<HttpAnswer> {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(call.url, {
        method: call.method,
        headers: call.headers ?? {},
        body: call.body || null,
        dispatcher: this.agent,
        signal,
      });
    } catch (error) {
      throw this.noAnswer(what, error, call.signal);
    }
    const answer: HttpAnswer = { status: response.statusCode, headers: flat(response.headers) };
    if (call.readBody && !call.readBody(answer.status)) {
      await response.body.dump().catch(() => undefined);
      return answer;
    }
    if (Number(answer.headers['content-length'] ?? 0) > this.maxBody) {
      response.body.destroy();
      return answer;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.maxBody) {
          response.body.destroy();
          return answer;
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (signal.aborted) throw this.noAnswer(what, error, call.signal);
      return answer; // cut off
    }
    return { ...answer, text: Buffer.concat(chunks).toString('utf8') };
  }

  /**
   * A fetch for a platform library that takes one, made with `send`: the same connections and
   * deadline, without fetch's web streams and request cloning (a third of the CPU per call); the
   * answer is read whole, then handed over as a Response. Bodies are text, as GraphQL's are.
   */
  readonly fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    if (init.body != null && typeof init.body !== 'string') throw new TypeError('HttpClient.fetch sends text bodies only');
    const answer = await this.send('fetch', {
      method: init.method ?? 'GET',
      url: input,
      headers: isRecord(init.headers) ? init.headers : Object.fromEntries(new Headers(init.headers)),
      ...(init.body && { body: init.body }),
      signal: init.signal ?? undefined,
    });
    if (answer.text === undefined && !NO_BODY.has(answer.status)) throw new TypeError('fetch failed: the answer was cut off or too large');
    return new Response(NO_BODY.has(answer.status) ? null : answer.text, { status: answer.status, headers: answer.headers });
  };

  private deadline(signal: AbortSignal | undefined): Deadline {
    const { timeoutMs, capsCallerDeadline } = this.options;
    return capsCallerDeadline || !signal ? deadline(signal, timeoutMs) : { signal, clear: () => undefined };
  }

  private noAnswer(what: string, error: unknown, callerSignal: AbortSignal | undefined): unknown {
    if (callerSignal?.aborted) return callerSignal.reason;
    if ((error as Error | undefined)?.name === 'TimeoutError')
      return new BackendError(`${what}: the store is unreachable (no answer within ${this.options.timeoutMs} ms)`, true);
    return unreachable(what, error);
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

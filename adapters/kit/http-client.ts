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
 * undici's dispatcher rather than fetch or its request API: the answer is collected from the
 * dispatcher's callbacks, with no web or Node stream, async iteration or async resource per call
 * (fetch costs about three times the CPU per call; request cost the REST adapter's quote a fifth
 * more instructions).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, errors, type Dispatcher } from 'undici';
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
function unreachable(what: string, error: unknown): BackendError {
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

const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );

/** What a body not wanted is read to, to keep its connection; a longer one closes it (as undici's dump does). */
const MAX_DROPPED_BYTES = 128 * 1024;

/** What `answerReader` settles with. */
interface Settle {
  answer(answer: HttpAnswer): void;
  failure(error: unknown): void;
}

/**
 * One exchange's answer, collected from undici's dispatcher callbacks: the status and headers,
 * then the body whole, up to the cap. `settle` gets the answer (without text when over the cap,
 * not wanted, or cut off other than by `signal`), or the failure of an exchange that ended before
 * the status came or was aborted by `signal` while a wanted body was read. `abort` is the
 * signal's listener: it aborts the exchange now, or as soon as undici starts it. Closures rather
 * than a class: the build defines every class field of every instance with defineProperty.
 */
function answerReader(
  maxBody: number,
  readBody: ((status: number) => boolean) | undefined,
  signal: AbortSignal,
  settle: Settle,
): Dispatcher.DispatchHandler & { abort: () => void } {
  let status = 0;
  let headers: Record<string, string> = {};
  const chunks: Buffer[] = [];
  let size = 0;
  let wanted = true;
  let controller: Dispatcher.DispatchController | undefined;
  let settled = false;
  const finish = (text: string | undefined) => {
    if (settled) return;
    settled = true;
    settle.answer(text === undefined ? { status, headers } : { status, headers, text });
  };
  /** Settles with the answer, without text, and drops the rest of the body with its connection. */
  const stop = (started: Dispatcher.DispatchController) => {
    finish(undefined);
    started.abort(new errors.RequestAbortedError());
  };
  const abort = () => controller?.abort(signal.reason as Error); // undici hands the reason on as it is
  return {
    abort,
    onRequestStart(started) {
      controller = started;
      if (signal.aborted) abort();
    },
    onResponseStart(started, code, fields) {
      if (code < 200) return; // informational (100 Continue, 103 Early Hints): the answer is still to come
      status = code;
      headers = flat(fields);
      wanted = !readBody || readBody(code);
      if (Number(headers['content-length'] ?? 0) > (wanted ? maxBody : MAX_DROPPED_BYTES)) stop(started);
    },
    onResponseData(started, chunk) {
      if (settled) return;
      size += chunk.length;
      if (size > (wanted ? maxBody : MAX_DROPPED_BYTES)) stop(started);
      else if (wanted) chunks.push(chunk);
    },
    onResponseEnd() {
      finish(wanted ? Buffer.concat(chunks).toString('utf8') : undefined);
    },
    onResponseError(_started, error) {
      if (settled) return;
      // A body not wanted, or cut off (not by the signal): the answer as far as it came.
      if (status !== 0 && (!wanted || !signal.aborted)) return finish(undefined);
      settled = true;
      settle.failure(error);
    },
  };
}

export class HttpClient {
  /** Kept-alive connections; also the dispatcher for a platform library's own calls (Medusa's SDK). */
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

  private exchange(what: string, call: HttpRequest, signal: AbortSignal): Promise<HttpAnswer> {
    let url: URL;
    try {
      url = typeof call.url === 'string' ? new URL(call.url) : call.url;
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
    } catch (error) {
      throw this.noAnswer(what, error, call.signal);
    }
    return new Promise((resolve, reject) => {
      const settled = (): void => signal.removeEventListener('abort', reader.abort);
      const reader = answerReader(this.maxBody, call.readBody, signal, {
        answer: (answer) => (settled(), resolve(answer)),
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the caller's abort reason goes on as it is
        failure: (error) => (settled(), reject(this.noAnswer(what, error, call.signal))),
      });
      signal.addEventListener('abort', reader.abort);
      const path = url.search ? `${url.pathname}${url.search}` : url.pathname;
      this.agent.dispatch({ origin: url.origin, path, method: call.method, headers: call.headers ?? {}, body: call.body || null }, reader);
    });
  }

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

/**
 * Every backend call goes through here: a deadline per attempt, bounded retries with
 * exponential backoff and full jitter for failures the adapter marks retryable (honouring a
 * throttled backend's Retry-After), and a timeout surfaced as a retryable BackendError, which
 * the transports answer with 503. `placeOrder` is tried once: whether a timed-out placement
 * happened is for the checkout to find out (findOrderByReference), never for a blind retry.
 * Every answer is checked for the shape the gateway relies on (adapter-answers.ts) before it
 * is handed on: garbage is a final BackendError, never a crash further in. So is anything an
 * adapter throws that the contract does not name (an adapter bug, an unwrapped socket error).
 * Errors leave here without the tenant's backend credentials in their text, and an unnamed
 * error keeps only its name, code and (scrubbed) message: HTTP client errors carry request
 * configs with auth headers, which must never reach a log line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BackendError, InvalidAnswerError, InvalidPageTokenError, type Adapter } from '../../adapters/contract.js';
import { defaultBackendPolicy, type BackendPolicy } from '../config/backend-policy.js';
import { checkAnswer } from './adapter-answers.js';
import { CircuitOpenError, type BackendCircuit } from './backend-circuit.js';

/**
 * Why an attempt failed, in the gateway's terms only (never the store's text, which may carry a
 * buyer's data): timeout, unavailable (retryable), refused (final), invalid_answer, unexpected.
 */
export type FailureKind = 'timeout' | 'unavailable' | 'refused' | 'invalid_answer' | 'unexpected';

/** What a metrics or log sink learns about each attempt. */
export type BackendObserver = (call: {
  method: string;
  durationMs: number;
  outcome: 'ok' | 'error' | 'timeout';
  failure?: FailureKind;
}) => void;

function failureKind(error: unknown): FailureKind {
  if (error instanceof AttemptTimeout) return 'timeout';
  if (error instanceof InvalidAnswerError) return 'invalid_answer';
  if (error instanceof BackendError) return error.retryable ? 'unavailable' : 'refused';
  return 'unexpected';
}

/** The catalog and pricing reads: an adapter with `localReads` computes them in-process, so they run without a deadline. */
const READS = ['search', 'lookup', 'pickupLocations', 'discoverFulfillment', 'quote', 'checkoutUrl'] as const;

/** The adapter's asynchronous methods: each goes through the deadline, retry and shape checks below. */
export const BACKEND_METHODS = [
  ...READS,
  'placeOrder',
  'findOrderByReference',
  'getOrder',
  'verifyEligibility',
  'ordersChangedSince',
  'authenticateCustomer',
  'ping',
] as const;
export type BackendMethod = (typeof BACKEND_METHODS)[number];

const LOCAL_READS: ReadonlySet<BackendMethod> = new Set(READS);

/**
 * Every call but placeOrder and authenticateCustomer may be repeated: a quote or checkoutUrl with
 * a handle updates the same store cart; a login is tried once (the store counts failed logins).
 */
const REPEATABLE: ReadonlySet<BackendMethod> = new Set(
  BACKEND_METHODS.filter((method) => method !== 'placeOrder' && method !== 'authenticateCustomer'),
);

class AttemptTimeout extends BackendError {
  constructor(method: string, ms: number) {
    super(`backend ${method} did not answer within ${ms} ms`, true);
  }
}

/** One attempt: the adapter's own promise against the deadline, its signal aborted at the deadline. */
async function attempt<T>(method: string, run: (signal: AbortSignal) => Promise<T>, timeoutMs: number, outer?: AbortSignal): Promise<T> {
  const deadline = new AbortController();
  const signal = outer ? AbortSignal.any([outer, deadline.signal]) : deadline.signal;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.abort();
      reject(new AttemptTimeout(method, timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Replaces every occurrence of a credential in `text`. */
export function scrubber(secrets: readonly string[]): (text: string) => string {
  // Very short values would redact ordinary words; credentials are never that short.
  const values = secrets.filter((secret) => secret.length >= 6);
  return (text) => values.reduce((scrubbed, secret) => scrubbed.split(secret).join('[redacted]'), text);
}

/**
 * What the contract lets an adapter throw passes on with its text scrubbed; anything else is a
 * final BackendError whose cause is a scrubbed summary of the original (logged, never shown).
 */
function asBackendError(method: string, error: unknown, scrub: (text: string) => string): unknown {
  if (error instanceof InvalidPageTokenError) return error;
  if (error instanceof BackendError) {
    const message = scrub(error.message);
    if (message === error.message) return error;
    return error instanceof InvalidAnswerError
      ? new InvalidAnswerError(message)
      : new BackendError(message, error.retryable, error.retryAfterMs);
  }
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown } | null)?.code;
  const cause = { name, message: scrub(error instanceof Error ? error.message : String(error)), ...(typeof code === 'string' && { code }) };
  return Object.assign(new BackendError(`backend ${method} failed unexpectedly (${name})`, false), { cause });
}

function backoff(policy: BackendPolicy, failedAttempts: number, error: BackendError): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempts - 1));
  const jittered = Math.random() * ceiling;
  return Math.min(policy.maxDelayMs, Math.max(jittered, error.retryAfterMs ?? 0));
}

/**
 * `secrets`: the tenant's resolved backend credentials, kept out of every error text. `circuit`:
 * the tenant's breaker (backend-circuit.ts), which each attempt goes through; a call it refuses
 * is not retried here and not observed (no attempt was made).
 */
export function resilientAdapter(
  adapter: Adapter,
  policy: BackendPolicy = defaultBackendPolicy,
  observe: BackendObserver = () => undefined,
  secrets: readonly string[] = [],
  circuit?: BackendCircuit,
): Adapter {
  const scrub = scrubber(secrets);
  const guarded = <T>(method: string, fn: () => Promise<T>) => (circuit ? circuit.run(method, fn) : fn());
  async function call<T>(method: BackendMethod, run: (signal?: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
    const attempts = REPEATABLE.has(method) ? policy.attempts : 1;
    const local = adapter.localReads === true && LOCAL_READS.has(method);
    for (let n = 1; ; n++) {
      const started = performance.now();
      try {
        const answer = await guarded(method, () => (local ? run(outer) : attempt(method, run, policy.timeoutMs, outer)));
        const result = method === 'ping' ? answer : checkAnswer(method, answer);
        observe({ method, durationMs: performance.now() - started, outcome: 'ok' });
        return result;
      } catch (thrown) {
        if (thrown instanceof CircuitOpenError) throw thrown;
        const outcome = thrown instanceof AttemptTimeout ? 'timeout' : 'error';
        observe({ method, durationMs: performance.now() - started, outcome, failure: failureKind(thrown) });
        const error = outer?.aborted ? thrown : asBackendError(method, thrown, scrub);
        const retry = error instanceof BackendError && error.retryable && n < attempts && !outer?.aborted;
        if (!retry) throw error;
        await sleep(backoff(policy, n, error), undefined, outer ? { signal: outer } : undefined);
      }
    }
  }

  // The optional methods, bound to their adapter: present or not, as the adapter declares them.
  const discoverFulfillment = adapter.discoverFulfillment?.bind(adapter);
  const verifyEligibility = adapter.verifyEligibility?.bind(adapter);
  const ordersChangedSince = adapter.ordersChangedSince?.bind(adapter);
  const authenticateCustomer = adapter.authenticateCustomer?.bind(adapter);
  return {
    kind: adapter.kind,
    capabilities: adapter.capabilities,
    storefrontUrl: adapter.storefrontUrl,
    search: (query, signal, context) => call('search', (s) => adapter.search(query, s, context), signal),
    lookup: (ids, signal, options) => call('lookup', (s) => adapter.lookup(ids, s, options), signal),
    pickupLocations: (signal) => call('pickupLocations', (s) => adapter.pickupLocations(s), signal),
    ...(discoverFulfillment && {
      discoverFulfillment: (query, signal) => call('discoverFulfillment', (s) => discoverFulfillment(query, s), signal),
    }),
    ...(adapter.onCatalogChange && { onCatalogChange: (listener) => adapter.onCatalogChange!(listener) }),
    quote: (request, signal, context) => call('quote', (s) => adapter.quote(request, s, context), signal),
    checkoutUrl: (request, signal, context) => call('checkoutUrl', (s) => adapter.checkoutUrl(request, s, context), signal),
    placeOrder: (request, signal) => call('placeOrder', (s) => adapter.placeOrder(request, s), signal),
    findOrderByReference: (reference, signal, links) =>
      call('findOrderByReference', (s) => adapter.findOrderByReference(reference, s, links), signal),
    getOrder: (orderId, signal) => call('getOrder', (s) => adapter.getOrder(orderId, s), signal),
    ...(verifyEligibility && {
      verifyEligibility: (claims, buyer, signal) => call('verifyEligibility', (s) => verifyEligibility(claims, buyer, s), signal),
    }),
    verifyWebhook: (headers, rawBody) => checkAnswer('verifyWebhook', adapter.verifyWebhook(headers, rawBody)),
    ...(ordersChangedSince && {
      ordersChangedSince: (since, signal) => call('ordersChangedSince', (s) => ordersChangedSince(since, s), signal),
    }),
    ...(authenticateCustomer && {
      authenticateCustomer: (credentials, signal) => call('authenticateCustomer', (s) => authenticateCustomer(credentials, s), signal),
    }),
    ping: (signal) => call('ping', (s) => adapter.ping(s), signal),
    // Operator reads (tenant check, the console), never on a request's path: passed through as they are.
    ...(adapter.setup && { setup: adapter.setup }),
    ...(adapter.close && { close: () => adapter.close!() }),
  };
}

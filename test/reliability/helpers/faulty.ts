/**
 * `faulty(adapter, plan)`: the adapter with faults injected per method, for the backend-fault
 * suite. A plan entry is one fault for every call, a list of faults for the first calls (then
 * the real answer), or a function of the call number (undefined = the real answer).
 *
 * - timeout: never answers (until the gateway's deadline aborts the call);
 * - lost_reply: the backend does the work, but its answer never arrives (the worst case for
 *   writes: the order exists and the gateway does not know);
 * - error: a retryable BackendError (a 502 from the store); fatal: a final one (bad credentials);
 * - throttle: a retryable BackendError with Retry-After;
 * - crash: the adapter throws something that is not a BackendError (an adapter bug);
 * - garbage: answers with a malformed value (null, {}, amounts as decimal strings, text), in turn.
 */
import { BackendError, type Adapter, type PlaceOrderRequest } from '../../../adapters/contract.js';
import { BACKEND_METHODS, type BackendMethod } from '../../../src/tenancy/resilient-adapter.js';

export type Fault = 'timeout' | 'lost_reply' | 'error' | 'fatal' | 'throttle' | 'crash' | 'garbage';
export const FAULTS: readonly Fault[] = ['timeout', 'lost_reply', 'error', 'fatal', 'throttle', 'crash', 'garbage'];

/** The methods every adapter has; the optional ones (eligibility, order polling, ping) are off the demo store's path. */
export type FaultyMethod = Exclude<BackendMethod, 'verifyEligibility' | 'ordersChangedSince' | 'ping'>;
const OPTIONAL: ReadonlySet<BackendMethod> = new Set(['verifyEligibility', 'ordersChangedSince', 'ping']);
export const FAULTY_METHODS = BACKEND_METHODS.filter((method): method is FaultyMethod => !OPTIONAL.has(method));

export type FaultPlan = Partial<Record<FaultyMethod, Fault | readonly Fault[] | ((call: number) => Fault | undefined)>>;

const THROTTLE_RETRY_AFTER_MS = 20;

export interface FaultyAdapter extends Adapter {
  /** Calls that reached this wrapper, per method (attempts, after the gateway's retries). */
  readonly calls: Record<string, number>;
  /** Faults injected, per fault. */
  readonly injected: Record<string, number>;
  /** The reference of every placeOrder call, faulted or not, in order. */
  readonly placed: string[];
  /** Replaces the plan (e.g. the backend recovers) and restarts the call counts. */
  setPlan(plan: FaultPlan): void;
}

/** Every method failing the same way. */
export const everywhere = (fault: Fault | readonly Fault[]): FaultPlan => Object.fromEntries(FAULTY_METHODS.map((m) => [m, fault]));

/** Every number becomes a decimal string ("35.00"): the classic adapter bug of passing the store's own prices through. */
function decimalStrings(value: unknown): unknown {
  if (typeof value === 'number') return (value / 100).toFixed(2);
  if (Array.isArray(value)) return value.map(decimalStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decimalStrings(v)]));
  return value;
}

const GARBAGE: ReadonlyArray<(real: () => Promise<unknown>) => Promise<unknown>> = [
  async () => null,
  async () => ({}),
  async (real) => decimalStrings(await real()),
  async () => '<html><body>502 Bad Gateway</body></html>',
];

const neverAnswers = (signal: AbortSignal | undefined) =>
  new Promise<never>((_, reject) =>
    signal?.addEventListener('abort', () => reject(new BackendError('aborted by the gateway', true)), { once: true }),
  );

export function faulty(adapter: Adapter, initial: FaultPlan = {}): FaultyAdapter {
  let plan = initial;
  const calls: Record<string, number> = {};
  const injected: Record<string, number> = {};
  const placed: string[] = [];
  let garbageTurn = 0;

  function faultFor(method: FaultyMethod, n: number): Fault | undefined {
    const entry = plan[method];
    if (entry === undefined) return undefined;
    if (typeof entry === 'function') return entry(n);
    if (typeof entry === 'string') return entry;
    return entry[n - 1];
  }

  function wrap<A extends unknown[], R>(
    method: FaultyMethod,
    real: (...args: A) => Promise<R>,
    signalOf: (args: A) => AbortSignal | undefined,
  ) {
    return async (...args: A): Promise<R> => {
      const n = (calls[method] = (calls[method] ?? 0) + 1);
      if (method === 'placeOrder') placed.push((args[0] as PlaceOrderRequest).reference);
      const fault = faultFor(method, n);
      if (fault === undefined) return real(...args);
      injected[fault] = (injected[fault] ?? 0) + 1;
      switch (fault) {
        case 'timeout':
          return neverAnswers(signalOf(args));
        case 'lost_reply':
          await real(...args);
          return neverAnswers(signalOf(args));
        case 'error':
          throw new BackendError(`store answered 502 to ${method}`, true);
        case 'fatal':
          throw new BackendError(`store refused ${method}: 401 invalid API credentials`, false);
        case 'throttle':
          throw new BackendError(`store throttled ${method}: 429`, true, THROTTLE_RETRY_AFTER_MS);
        case 'crash':
          throw new TypeError(`Cannot read properties of undefined (reading 'edges') in ${method}`);
        case 'garbage':
          return (await GARBAGE[garbageTurn++ % GARBAGE.length]!(() => real(...args))) as R;
      }
    };
  }

  return {
    kind: adapter.kind,
    capabilities: adapter.capabilities,
    storefrontUrl: adapter.storefrontUrl,
    verifyWebhook: (headers, body) => adapter.verifyWebhook(headers, body),
    ping: (signal) => adapter.ping(signal),
    ...(adapter.onCatalogChange && { onCatalogChange: (listener) => adapter.onCatalogChange!(listener) }),
    search: wrap(
      'search',
      (q, s, c) => adapter.search(q, s, c),
      (a) => a[1],
    ),
    lookup: wrap(
      'lookup',
      (ids, s, o) => adapter.lookup(ids, s, o),
      (a) => a[1],
    ),
    pickupLocations: wrap(
      'pickupLocations',
      (s) => adapter.pickupLocations(s),
      (a) => a[0],
    ),
    discoverFulfillment: wrap(
      'discoverFulfillment',
      (q, s) => adapter.discoverFulfillment!(q, s),
      (a) => a[1],
    ),
    quote: wrap(
      'quote',
      (r, s, c) => adapter.quote(r, s, c),
      (a) => a[1],
    ),
    checkoutUrl: wrap(
      'checkoutUrl',
      (r, s, c) => adapter.checkoutUrl(r, s, c),
      (a) => a[1],
    ),
    placeOrder: wrap(
      'placeOrder',
      (r, s) => adapter.placeOrder(r, s),
      (a) => a[1],
    ),
    findOrderByReference: wrap(
      'findOrderByReference',
      (r, s) => adapter.findOrderByReference(r, s),
      (a) => a[1],
    ),
    getOrder: wrap(
      'getOrder',
      (id, s) => adapter.getOrder(id, s),
      (a) => a[1],
    ),
    calls,
    injected,
    placed,
    setPlan(next) {
      plan = next;
      for (const method of Object.keys(calls)) delete calls[method];
    },
  };
}

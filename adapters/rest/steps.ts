/**
 * An operation as the store sees it: one HTTP call (the tenant file's method/path/query/body),
 * or a short ordered list of `steps`, each one call (or one per element of `for_each`, a few at
 * a time) that may be skipped (`when`) and whose answer the later steps and the final `response`
 * read as `$steps.<name>`. Deliberately small: no loops beyond `for_each`, no recursion, at most
 * MAX_STEPS steps and `max_calls_per_run` calls per run (default 100), every call under the caller's deadline (`signal`).
 *
 * Retries stay the resilient wrapper's, which re-runs the whole operation; so once a call that
 * is not idempotent (POST, PATCH without an Idempotency-Key header) may have reached the store,
 * a failure is final rather than retryable: a retry must not add a line or a cart twice.
 */
import { BackendError } from '../contract.js';
import type { Expression, MappingSite } from './mapping.js';
import { runMapping } from './mapping.js';
import { fillPath, queryString, type StoreAnswer, type StoreClient } from './store-client.js';

export interface CompiledStep {
  name: string;
  method: string;
  path: string;
  query?: Expression;
  headers?: Expression;
  body?: Expression;
  when?: Expression;
  forEach?: Expression;
  concurrency: number;
  accept: number[];
  error?: Expression;
  /** Signs with the step's own credentials (`auth`); default the adapter's client. */
  client?: StoreClient;
}

export interface CompiledOperation {
  name: string;
  /** One step (named `call`) for a single-call operation. */
  steps: CompiledStep[];
  /** A single-call operation: `response` reads the answer itself, exactly as before steps existed. */
  single: boolean;
  response?: Expression;
}

/** What one call gave: for_each answers also carry their element. */
interface StepAnswer extends StoreAnswer {
  item?: unknown;
}

export interface OperationRun {
  /** The last call's answer (a single-call operation's only one). */
  last: StepAnswer;
  /** Answer bodies by step name (for_each: an array, in the order of the elements). */
  steps: Record<string, unknown>;
  answers: Record<string, StepAnswer | StepAnswer[]>;
}

/** One exchange, for `rest check --live`. */
export interface TraceEvent {
  operation: string;
  step: string;
  index?: number;
  method: string;
  target: string;
  sent?: unknown;
  status?: number;
  got?: unknown;
  error?: string;
}

export interface RunContext {
  tenant: string;
  client: StoreClient;
  bindings: Record<string, unknown>;
  secrets: readonly string[];
  /** Most store calls one run makes (`max_calls_per_run`). */
  maxCalls: number;
  trace?: (event: TraceEvent) => void;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i).filter((s) => s !== 404);

class NotFound extends Error {}

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

function headerObject(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new BackendError(`${where}: the headers mapping must give an object`, false);
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (!/^[A-Za-z0-9-]+$/.test(name)) throw new BackendError(`${where}: "${name}" is not a header name`, false);
    headers[name.toLowerCase()] = typeof v === 'object' ? JSON.stringify(v) : `${v as string | number | boolean}`;
  }
  return headers;
}

/** The run has made its `max_calls_per_run` calls: a final error that says which setting to raise. */
const overBudget = (ctx: RunContext, method: string, step: CompiledStep) =>
  new BackendError(
    `tenant ${ctx.tenant}: ${method}: step ${step.name} would make more than ${ctx.maxCalls} store calls in one run ` +
      '(adapter.settings.max_calls_per_run; or batch the ids into fewer calls)',
    false,
  );

/** Runs `work` over `items`, `limit` at a time, results in the order of the items. */
async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Runs the operation for `input` (the contract request). `notFound`: a 404 of any call means
 * the thing the operation is about is gone (an expired cart, an unknown order): `not_found`.
 */
export async function runOperation(
  op: CompiledOperation,
  method: string,
  input: unknown,
  ctx: RunContext,
  signal: AbortSignal | undefined,
  notFound: boolean,
): Promise<OperationRun | 'not_found'> {
  const steps: Record<string, unknown> = {};
  const answers: Record<string, StepAnswer | StepAnswer[]> = {};
  let last: StepAnswer | undefined;
  let calls = 0;
  /** A call that is not idempotent may have reached the store. */
  let unsafe = false;

  const call = async (step: CompiledStep, bindings: Record<string, unknown>, vars: unknown, index?: number): Promise<StepAnswer> => {
    const site: MappingSite = { tenant: ctx.tenant, method, ...(!op.single && { step: step.name }), secrets: ctx.secrets };
    const query = step.query && runMapping(step.query, site, input, bindings, false);
    const body = step.body && runMapping(step.body, site, input, bindings, false);
    const headers = step.headers
      ? headerObject(runMapping(step.headers, site, input, bindings, false), `tenant ${ctx.tenant}: ${method}: step ${step.name}`)
      : {};
    const idempotent = IDEMPOTENT_METHODS.has(step.method) || 'idempotency-key' in headers;
    const accept = [...step.accept, ...(step.error ? CLIENT_ERRORS : []), ...(notFound || step.accept.includes(404) ? [404] : [])];
    const traced = (more: Partial<TraceEvent>) =>
      ctx.trace?.({
        operation: op.name,
        step: step.name,
        ...(index !== undefined && { index }),
        method: step.method,
        target: safeTarget(step.path, vars, query),
        ...(body !== undefined && { sent: body }),
        ...more,
      });
    calls += 1;
    if (calls > ctx.maxCalls) throw overBudget(ctx, method, step);
    let answer: StoreAnswer | 'not_found';
    try {
      answer = await (step.client ?? ctx.client).send(
        method,
        { method: step.method, path: step.path, vars, query, body, ...(Object.keys(headers).length > 0 && { headers }) },
        accept,
        signal,
      );
    } catch (error) {
      traced({ error: (error as Error).message });
      const mayRepeat = op.single || (idempotent && !unsafe);
      if (error instanceof BackendError && error.retryable && !mayRepeat)
        throw new BackendError(`${error.message} (step ${step.name}; not retried: an earlier or this call is not idempotent)`, false);
      throw error;
    } finally {
      if (!idempotent) unsafe = true;
    }
    if (answer === 'not_found') {
      traced({ status: 404 });
      if (step.accept.includes(404)) return { status: 404, headers: {}, body: undefined };
      throw new NotFound();
    }
    traced({ status: answer.status, got: answer.body });
    const ok = (answer.status >= 200 && answer.status < 300) || step.accept.includes(answer.status);
    if (!ok) {
      const message = runMapping(step.error!, { ...site, answer: answer.body }, answer.body, { ...bindings, status: answer.status }, false);
      throw new BackendError(
        `tenant ${ctx.tenant}: ${method}: step ${step.name}: the store refused the call (${answer.status})` +
          (typeof message === 'string' && message ? `: ${message}` : ''),
        false,
      );
    }
    return answer;
  };

  try {
    for (const step of op.steps) {
      const bindings = { ...ctx.bindings, request: input, steps, answers };
      const site: MappingSite = { tenant: ctx.tenant, method, step: step.name, secrets: ctx.secrets };
      if (step.when && !runMapping(step.when, site, input, bindings, false)) continue;
      const vars = (extra: Record<string, unknown>) => ({ ...(input as object), steps, ...extra });
      if (step.forEach) {
        const items = list(runMapping(step.forEach, site, input, bindings, false));
        const results = await pool(items, step.concurrency, async (item, index) => ({
          ...(await call(step, { ...bindings, item, index }, vars({ item, index }), index)),
          item,
        }));
        steps[step.name] = results.map((r) => r.body);
        answers[step.name] = results;
        if (results.length > 0) last = results.at(-1);
      } else {
        const answer = await call(step, bindings, vars({}));
        steps[step.name] = answer.body;
        answers[step.name] = answer;
        last = answer;
      }
    }
  } catch (error) {
    if (error instanceof NotFound) return 'not_found';
    throw error;
  }
  return { last: last ?? { status: 204, headers: {}, body: undefined }, steps, answers };
}

/** Path and query as sent, for traces; a value that does not fit the template shows as the template. */
function safeTarget(path: string, vars: unknown, query: unknown): string {
  try {
    return fillPath(path, vars) + queryString(query);
  } catch {
    return path;
  }
}

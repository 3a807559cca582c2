/**
 * Rate limits per caller and per tenant (tenant file `policies.rate_limits`), fixed windows
 * counted by @fastify/rate-limit: in Redis when the state store is Redis, so every replica
 * draws on one budget, else in this process. Operation calls (REST, each tool call of an MCP
 * batch, each A2A message naming an action) are counted by the pipeline through the limiter
 * returned here, once the caller is known (pipeline/call-budgets.ts); every other JSON-RPC
 * message (MCP tools/list, ping, initialize, notifications; A2A free text) by its transport with
 * `meterMessage`, at its method's cost, on its address's budget; the other routes (order pages,
 * backend webhooks, the simulation) per request, by client certificate or address. Over a limit: 429 with
 * Retry-After, as `{code: 'rate_limited', content}` on REST and a JSON-RPC error with
 * `data.retry_after` on MCP. When the counters cannot be reached the request passes (fail open,
 * one log line per outage): the state store already fails closed, and a limiter outage must not
 * turn into a full outage. Discovery, health and metrics are never limited, nor the merchant's own
 * site passed through at its origin (front-door): browsing the store must not spend protocol budgets.
 * Metrics are on the admin listener (admin.ts), which counts nothing.
 */
import { createHash } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../observability/metrics.js';
import { callerBudget, type CountOptions, type LimitScope, type RateLimiter } from '../pipeline/call-budgets.js';
import { profilePath } from '../protocol/business-profile.js';
import { ProtocolError } from '../protocol/errors.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';

/** Route config of the routes whose operation calls the pipeline counts (REST operations, MCP). */
export const COUNTED_PER_CALL = { countedPerCall: true };

const UNLIMITED_ROUTES = new Set([profilePath, '/healthz', '/readyz']);

/** Route config of routes no limit counts (the storefront passed through, front-door). */
export const NOT_LIMITED = { notLimited: true };

/**
 * What a JSON-RPC message costs, in operation calls, by method; any method not listed costs 1. A
 * tool call (and an A2A message naming an action) costs its operation's call, which the pipeline
 * counts against the caller's principal. tools/list answers the whole tool table (about 30 KB for
 * a tenant with every capability, the size of several operations' answers).
 */
export const MESSAGE_COSTS: Readonly<Record<string, number>> = { 'tools/list': 5 };

export const messageCost = (method: unknown): number => (typeof method === 'string' ? MESSAGE_COSTS[method] : undefined) ?? 1;

const limitedTenant = (tenant: Tenant) => Boolean(tenant.policies.rateLimits.perCaller || tenant.policies.rateLimits.perTenant);

/**
 * Counts one JSON-RPC message that runs no operation (an MCP tools/list, ping, initialize,
 * notification or tool call naming no tool; an A2A message without an action) at its method's
 * cost, against the budget of the sender's network address (these messages prove no caller) and
 * the tenant's; throws the 429 ProtocolError past either, before the message is answered.
 */
export async function meterMessage(req: FastifyRequest, method: string): Promise<void> {
  const { tenant } = req;
  if (!tenant || !limitedTenant(tenant)) return;
  const cost = messageCost(method);
  await req.server.rateLimiter.count(tenant, 'caller', callerBudget(undefined, req.ip), req.log, { cost });
  await req.server.rateLimiter.count(tenant, 'tenant', tenant.id, req.log, { cost });
}

/** Who sends a request outside the pipeline: a client certificate the TLS listener verified, else the address. */
function requestCaller(req: FastifyRequest): string {
  const socket = req.raw.socket as Partial<TLSSocket>;
  if (socket.encrypted && socket.authorized && typeof socket.getPeerCertificate === 'function') {
    const fingerprint = socket.getPeerCertificate().fingerprint256;
    if (fingerprint) return `cert:${createHash('sha256').update(fingerprint).digest('base64url').slice(0, 22)}`;
  }
  return `ip:${req.ip}`;
}

/** What the counters see of a call: duck-typed as the request @fastify/rate-limit expects. */
interface Counted {
  routeOptions: { config: Record<string, never> };
  key: string;
  limit: { max: number; windowMs: number };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The pipeline counts this route's operation calls; the per-request hook leaves it alone. */
    countedPerCall?: boolean;
    /** No limit counts this route's requests. */
    notLimited?: boolean;
  }
  interface FastifyInstance {
    /** The counters the pipeline counts operation calls with (rateLimits below). */
    rateLimiter: RateLimiter;
  }
}

export interface RateLimitsOptions {
  store: StateStore;
  metrics: Metrics;
}

/** Adds the counters and the per-request hook, and decorates the app with the limiter the pipeline counts calls with. */
async function addRateLimits(app: FastifyInstance, { store, metrics }: RateLimitsOptions): Promise<void> {
  const shared = store.connection;
  // The counting functions are the plugin's own settings and the limiter is created without
  // options: with options it derives a child store whose keys insert the route's method and URL,
  // which a limiter outside any route spells `undefinedundefined-`.
  await app.register(rateLimit, {
    global: false,
    skipOnError: false,
    keyGenerator: (req) => (req as unknown as Counted).key,
    max: (req) => (req as unknown as Counted).limit.max,
    timeWindow: (req) => (req as unknown as Counted).limit.windowMs,
    ...(shared && { redis: shared.client, nameSpace: `${shared.keyPrefix}rl:` }),
  });
  const checkNow = app.createRateLimit();
  // The in-process store hands every check the same counter object and the count is read after an
  // await, so concurrent checks (the calls of one MCP batch) would all see the last count: in
  // process they run one after another (each is synchronous underneath). Redis answers each apart.
  let tail: Promise<unknown> = Promise.resolve();
  const check = (counted: Counted, peek: boolean) => {
    const run = () => checkNow(counted as unknown as FastifyRequest, { increment: !peek });
    if (shared) return run();
    const result = tail.then(run);
    tail = result.catch(() => undefined);
    return result;
  };

  type Checked = Awaited<ReturnType<typeof checkNow>>;
  let failing = false;
  const limiter: RateLimiter = {
    async count(tenant: Tenant, scope: LimitScope, key: string, log: FastifyBaseLogger, options: CountOptions = {}): Promise<void> {
      const { perCaller, perTenant } = tenant.policies.rateLimits;
      const limit = scope === 'caller' ? perCaller : perTenant;
      if (!limit) return;
      const { peek = false, cost = 1 } = options;
      const refuses = (r: Checked): r is Extract<Checked, { isAllowed: false }> => !r.isAllowed && (peek ? r.remaining <= 0 : r.isExceeded);
      let result;
      try {
        const counted: Counted = { routeOptions: { config: {} }, key: `${scope}:${tenant.id}:${key}`, limit };
        if (peek || cost === 1) result = await check(counted, peek);
        else {
          // The counters add one at a time: a message costing more is that many increments, any past the limit refusing it.
          const results = await Promise.all(Array.from({ length: cost }, () => check(counted, false)));
          result = results.find(refuses) ?? results[0]!;
        }
      } catch (error) {
        metrics.rateLimiterFailed();
        if (!failing) log.warn({ err: error }, 'rate-limit counters unreachable: requests pass unlimited until they answer');
        failing = true;
        return;
      }
      if (failing) log.info('rate-limit counters answer again');
      failing = false;
      if (!refuses(result)) return;
      metrics.rateLimited(tenant.id, scope);
      const retryAfterSeconds = Math.max(1, result.ttlInSeconds);
      const who = scope === 'caller' ? 'this caller' : `all callers of ${tenant.name}`;
      throw new ProtocolError(
        'rate_limited',
        `rate limit reached for ${who}: ${result.max} requests per ${result.timeWindow / 1000} s; retry in ${retryAfterSeconds} s`,
        {
          retryAfterSeconds,
        },
      );
    },
  };

  // Most requests meet no limit: they pass without the promise an async hook would cost, and
  // before reading req.routeOptions, which Fastify builds afresh (a 13-field object) on every read.
  app.addHook('preHandler', (req, _reply, done) => {
    const { tenant } = req;
    if (!tenant || !limitedTenant(tenant)) return done();
    const { config, url } = req.routeOptions;
    if (config.countedPerCall || config.notLimited || UNLIMITED_ROUTES.has(url ?? '')) return done();
    limiter
      .count(tenant, 'caller', requestCaller(req), req.log)
      .then(() => limiter.count(tenant, 'tenant', tenant.id, req.log))
      .then(() => done(), done);
  });
  app.decorate('rateLimiter', limiter);
}

/** Through fastify-plugin, so the per-request hook reaches every transport registered after it. */
export const rateLimits = fp(addRateLimits, { name: 'rate-limits', dependencies: ['request-hooks'], decorators: { request: ['tenant'] } });

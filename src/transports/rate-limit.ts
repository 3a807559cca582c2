/**
 * Rate limits per caller and per tenant (tenant file `policies.rate_limits`), fixed windows
 * counted by @fastify/rate-limit: in Redis when the state store is Redis, so every replica
 * draws on one budget, else in this process. Over a limit: 429 with Retry-After, as
 * `{code: 'rate_limited', content}` on REST and a JSON-RPC error with `data.retry_after` on MCP.
 * When the counters cannot be reached the request passes (fail open, one log line per outage):
 * the state store already fails closed, and a limiter outage must not turn into a full outage.
 * Discovery, health and metrics are never limited.
 */
import { createHash } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { parseAgentHeader } from '../protocol/agent-header.js';
import { profilePath } from '../protocol/business-profile.js';
import { ProtocolError } from '../protocol/errors.js';
import { RedisStore } from '../state/redis-store.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';

const UNLIMITED_ROUTES = new Set([profilePath, '/healthz', '/readyz', '/metrics']);

/** 128 bits of SHA-256: a bounded, opaque key that never stores or logs the credential itself. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value || undefined;
}

/** The MCP profile URL lives in the JSON-RPC body: params.arguments.meta["proto-agent"].profile. */
function mcpProfile(body: unknown): string | undefined {
  const meta = (body as { params?: { arguments?: { meta?: Record<string, { profile?: unknown }> } } } | null)?.params?.arguments?.meta;
  const profile = meta?.['proto-agent']?.profile;
  return typeof profile === 'string' ? profile : undefined;
}

function restProfile(req: FastifyRequest): string | undefined {
  try {
    return parseAgentHeader(req.headers['proto-agent']).profile;
  } catch {
    return undefined; // the operation answers the malformed header itself
  }
}

/**
 * Who is calling: a client certificate the TLS listener verified, else the credential
 * presented (API key or Authorization, hashed), else the PROTO-Agent profile URL (REST header
 * or MCP meta), else the client address. Credentials are checked later, by authentication:
 * here they only tell callers apart.
 */
export function callerKey(req: FastifyRequest): string {
  const socket = req.raw.socket as Partial<TLSSocket>;
  if (socket.encrypted && socket.authorized && typeof socket.getPeerCertificate === 'function') {
    const fingerprint = socket.getPeerCertificate().fingerprint256;
    if (fingerprint) return `cert:${digest(fingerprint)}`;
  }
  const apiKey = header(req, 'x-api-key');
  if (apiKey) return `key:${digest(apiKey)}`;
  const authorization = header(req, 'authorization');
  if (authorization) return `auth:${digest(authorization)}`;
  const profile = req.routeOptions.url === '/mcp' ? mcpProfile(req.body) : restProfile(req);
  if (profile) return `profile:${digest(profile)}`;
  return `ip:${req.ip}`;
}

export async function registerRateLimits(app: FastifyInstance, store: StateStore, metrics: Metrics): Promise<void> {
  const shared = store instanceof RedisStore ? store.connection : undefined;
  await app.register(rateLimit, {
    global: false,
    skipOnError: false,
    ...(shared && { redis: shared.client, nameSpace: `${shared.keyPrefix}rl:` }),
  });
  const limits = (req: FastifyRequest) => req.tenant!.policies.rateLimits;
  const scopes = [
    {
      scope: 'caller' as const,
      check: app.createRateLimit({
        keyGenerator: (req) => `caller:${req.tenant!.id}:${callerKey(req)}`,
        max: (req) => limits(req).perCaller!.max,
        timeWindow: (req) => limits(req).perCaller!.windowMs,
      }),
      applies: (req: FastifyRequest) => limits(req).perCaller !== undefined,
    },
    {
      scope: 'tenant' as const,
      check: app.createRateLimit({
        keyGenerator: (req) => `tenant:${req.tenant!.id}`,
        max: (req) => limits(req).perTenant!.max,
        timeWindow: (req) => limits(req).perTenant!.windowMs,
      }),
      applies: (req: FastifyRequest) => limits(req).perTenant !== undefined,
    },
  ];

  let failing = false;
  const limit = async (req: FastifyRequest, tenant: Tenant) => {
    for (const { scope, check, applies } of scopes) {
      if (!applies(req)) continue;
      let result;
      try {
        result = await check(req);
      } catch (error) {
        metrics.rateLimiterFailed();
        if (!failing) req.log.warn({ err: error }, 'rate-limit counters unreachable: requests pass unlimited until they answer');
        failing = true;
        return;
      }
      if (failing) req.log.info('rate-limit counters answer again');
      failing = false;
      if (result.isAllowed || !result.isExceeded) continue;
      metrics.rateLimited(tenant.id, scope);
      const retryAfterSeconds = Math.max(1, result.ttlInSeconds);
      const who = scope === 'caller' ? 'this caller' : `all callers of ${tenant.name}`;
      throw new ProtocolError(429, 'rate_limited', `rate limit reached for ${who}: ${result.max} requests per ${result.timeWindow / 1000} s; retry in ${retryAfterSeconds} s`, {
        retryAfterSeconds,
      });
    }
  };
  // Most requests meet no limit: they pass without the promise an async hook would cost.
  app.addHook('preHandler', (req, _reply, done) => {
    const { tenant } = req;
    if (!tenant || UNLIMITED_ROUTES.has(req.routeOptions.url ?? '') || !scopes.some(({ applies }) => applies(req))) return done();
    limit(req, tenant).then(() => done(), done);
  });
}

/**
 * Rate limits count operation calls, not HTTP requests: each REST call and each tool call of an
 * MCP batch draws on its caller's budget, then on the tenant's (a call its caller's limit refuses
 * spends nothing of the tenant's; a spent tenant budget refuses calls before any profile fetch).
 * A caller's budget is its principal's: the platform its credentials proved (API key, OAuth
 * client, client certificate, a signature from a profile the tenant lists), or a buyer through
 * it. A call that proved nobody, or failed to, is an unverified claim, and a caller proven only by
 * keys it published itself (a signature accepted through `auth.signatures.any_profile`) is hardly
 * more: anyone can host as many profiles as they like. Both draw on the budget of their network
 * address, whatever profile URL they name: naming a platform's profile URL never spends that
 * platform's budget, and hosting or naming a new profile on every call never buys a new budget.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { canonicalProfile, type Principal } from '../security/auth/principal.js';
import type { Tenant } from '../tenancy/tenant.js';

export type LimitScope = 'caller' | 'tenant';

export interface CountOptions {
  /** Count nothing: throw when the budget is already spent. */
  peek?: boolean;
  /** How many calls this one counts as (a message's cost, transports/rate-limiter.ts); default 1. */
  cost?: number;
}

export interface RateLimiter {
  /** Counts one call against `key`'s budget in `scope`; throws a 429 ProtocolError past it. */
  count(tenant: Tenant, scope: LimitScope, key: string, log: FastifyBaseLogger, options?: CountOptions): Promise<void>;
}

/** 128 bits of SHA-256: a bounded, opaque counter key that never holds a URL or an id itself. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

/** The caller budget a call draws on: its principal's, else (nobody proven, or only by self-published keys) its network address's. */
export function callerBudget(principal: Principal | undefined, address: string): string {
  if (principal?.kind === 'platform' && !principal.selfPublished) return `platform:${digest(canonicalProfile(principal.profileUrl))}`;
  if (principal?.kind === 'buyer') return `buyer:${digest(`${canonicalProfile(principal.profileUrl)}\n${principal.buyerId}`)}`;
  return `claim:${address}`;
}

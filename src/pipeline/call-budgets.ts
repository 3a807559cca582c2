/**
 * Rate limits count operation calls, not HTTP requests: each REST call and each tool call of an
 * MCP batch draws on its caller's budget, then on the tenant's (a call its caller's limit refuses
 * spends nothing of the tenant's; a spent tenant budget refuses calls before any profile fetch).
 * A caller is who authentication verified (the platform, or a buyer through it); a call that
 * verified nobody, or failed to, is an unverified claim and draws on the budget of its network
 * address, whatever profile URL it names: merely naming a platform's profile URL never spends
 * that platform's budget, and naming a new URL on every call never buys a new budget.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../security/auth/principal.js';
import type { Tenant } from '../tenancy/tenant.js';

export type LimitScope = 'caller' | 'tenant';

export interface RateLimiter {
  /**
   * Counts one call against `key`'s budget in `scope`; throws a 429 ProtocolError past it. With
   * `peek`, counts nothing and throws when the budget is already spent.
   */
  count(tenant: Tenant, scope: LimitScope, key: string, log: FastifyBaseLogger, peek?: boolean): Promise<void>;
}

/** 128 bits of SHA-256: a bounded, opaque counter key that never holds a URL or an id itself. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

const canonical = (url: string) => (URL.canParse(url) ? new URL(url).href : url);

/** The caller budget a call draws on: its verified identity, else its network address. */
export function callerBudget(principal: Principal | undefined, address: string): string {
  if (principal?.kind === 'platform') return `platform:${digest(canonical(principal.profileUrl))}`;
  if (principal?.kind === 'buyer') return `buyer:${digest(`${canonical(principal.profileUrl)}\n${principal.buyerId}`)}`;
  return `claim:${address}`;
}

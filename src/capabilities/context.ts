/** What an operation handler may use: the tenant, the negotiated caller, state, time, logs. */
import type { BaseLogger } from 'pino';
import type { RequestContext } from '../../adapters/contract.js';
import type { PlatformProfile } from '../../schemas/profile.js';
import type { GatewaySecret } from '../config/gateway-secret.js';
import type { CapabilityName } from '../protocol/capability-registry.js';
import type { Principal } from '../security/auth/principal.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';

/** The logger handlers write to: pino's (Fastify's request and app loggers are pino), so no layer below the transports names Fastify. */
export type Logger = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;

export type Transport = 'rest' | 'mcp' | 'a2a' | 'embedded';

export interface Caller {
  /** The profile URL from PROTO-Agent (or MCP meta). */
  profileUrl: string;
  profile: PlatformProfile;
  /** Capabilities active for this caller (the negotiated intersection). */
  active: ReadonlySet<CapabilityName>;
  /** Who authenticated: anonymous, the platform itself, or a buyer acting through it. */
  principal: Principal;
  /** Who owns what this caller creates and may reach it again (security/auth/principal.ts `ownerOf`). */
  owner: string;
}

export interface OperationContext {
  tenant: Tenant;
  caller: Caller;
  transport: Transport;
  requestId: string;
  /** The request's idempotency key, when it carries one (a checkout completion is tied to it). */
  idempotencyKey?: string;
  log: Logger;
  store: StateStore;
  /** Keys for the tokens the gateway signs (the same on every replica). */
  secret: GatewaySecret;
  now: () => number;
  /** What the store may learn of the request (client IP, language); absent outside a request. */
  client?: RequestContext;
}

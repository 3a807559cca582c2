/**
 * The transport-independent path of every operation call: capability offered -> tenant budget left ->
 * caller negotiated and authenticated -> caller and tenant budgets -> payload valid -> idempotency -> handler -> envelope.
 * A caller whose negotiated capabilities lack the operation's gets `capabilities_incompatible`.
 * REST, MCP, A2A and the embedded page all end here, so an operation behaves the same over each.
 */
import type { RequestContext } from '../../adapters/contract.js';
import type { GatewaySecret } from '../config/gateway-secret.js';
import { negotiated, type Negotiated } from '../protocol/negotiated.js';
import { ProtocolError } from '../protocol/errors.js';
import { errorMessage } from '../protocol/messages.js';
import type { ProfileFetcher } from '../protocol/profile-fetcher.js';
import type { PlatformProfile } from '../../schemas/profile.js';
import { ownerOf, type Principal } from '../security/auth/principal.js';
import type { AdmissionRequest } from '../security/tenant-security.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';
import { compile, type Validator } from '../../schemas/validator.js';
import { AnswerCache, type CachedAnswer } from './answer-cache.js';
import type { Caller, OperationContext } from '../capabilities/context.js';
import { fingerprint } from '../security/fingerprint.js';
import { checkIdempotencyKey, Idempotency, type IdempotencyOutcome, type StoredResponse } from './idempotency.js';
import type { AnswerScope, OperationDefinition, OperationInput } from '../capabilities/operation.js';
import { bindSession } from '../embedded/session/session-binding.js';
import { callerBudget, type RateLimiter } from './call-budgets.js';
import type { OperationCall } from './operation-call.js';

/** What the adapters may learn of the request (adapters/contract.ts RequestContext). */
function clientOf(call: OperationCall): RequestContext {
  const client: RequestContext = {};
  if (call.address) client.clientIp = call.address;
  if (call.language) client.language = call.language;
  return client;
}

export interface OperationResponse extends StoredResponse {
  replayed: boolean;
  /** `body` as UTF-8 bytes, when the pipeline holds them (a kept answer); a response with another body must not carry them. */
  bytes?: Buffer;
}

export interface IdempotencyEvent {
  tenant: string;
  operation: string;
  outcome: IdempotencyOutcome;
}

export interface PipelineDeps {
  store: StateStore;
  profiles: ProfileFetcher;
  idempotency: Idempotency;
  secret: GatewaySecret;
  now: () => number;
  /** Told what became of each keyed request (metrics). */
  observeIdempotency?: (event: IdempotencyEvent) => void;
  /** The tenants' rate limits; none when absent. */
  rateLimiter?: RateLimiter;
}

/**
 * The operation's capability is not in the negotiated intersection: a negotiation failure, which
 * is a business outcome (HTTP 200, JSON-RPC result) with the store's page to continue on.
 */
function incompatible(op: OperationDefinition, tenant: Tenant, negotiation: Negotiated): StoredResponse {
  const content = `${op.name} needs ${op.capability}, which is not among the capabilities this business and the caller's profile share.`;
  const messages = [errorMessage('capabilities_incompatible', content, 'unrecoverable')];
  const body = { messages, continue_url: tenant.adapter.storefrontUrl };
  return { status: 200, outcome: 'error', body: negotiation.envelope('error', op.capability, body) };
}

const limited = (tenant: Tenant) =>
  tenant.policies.rateLimits.perCaller !== undefined || tenant.policies.rateLimits.perTenant !== undefined;

/** Bounds the owners whose idempotency scope is remembered. */
const MAX_SCOPES = 1024;

/**
 * Idempotency keys are scoped by the caller's owner (what its credentials prove, a digest of it, so
 * no URL ends up in a store key): an unauthenticated caller naming a platform's profile never
 * replays that platform's answers. Records written under the old scope (the bare profile URL)
 * are not found and expire. Callers are few and call often: each owner's digest is computed once.
 */
class IdempotencyScopes {
  private readonly digests = new Map<string, string>();

  of(owner: string): string {
    let scope = this.digests.get(owner);
    if (scope === undefined) {
      if (this.digests.size >= MAX_SCOPES) this.digests.clear();
      this.digests.set(owner, (scope = fingerprint(['owner', owner]).slice(0, 16)));
    }
    return scope;
  }
}

/** A kept answer as this call's response: its fields named, not spread (a spread builds two objects, each copied key by key). */
const keptResponse = ({ status, outcome, body, bytes }: CachedAnswer): OperationResponse => ({
  status,
  outcome,
  body,
  bytes,
  replayed: false,
});

/** A caller negotiated with and authenticated. */
interface Admitted {
  profile: PlatformProfile;
  negotiation: Negotiated;
  principal: Principal;
}

export class Pipeline {
  private readonly validators = new Map<string, Validator<unknown>>();
  private readonly answers: AnswerCache;
  private readonly scopes = new IdempotencyScopes();

  constructor(
    operations: readonly OperationDefinition[],
    private readonly deps: PipelineDeps,
  ) {
    for (const op of operations) if (op.input) this.validators.set(op.name, compile(op.input));
    this.answers = new AnswerCache(deps.now);
  }

  async execute(op: OperationDefinition, call: OperationCall): Promise<OperationResponse> {
    const { tenant } = call;
    if (!tenant.capabilities.has(op.capability)) {
      throw new ProtocolError('operation_unavailable', `${tenant.name} does not offer ${op.capability}`);
    }
    // Most tenants set no limit: their calls skip the limiter's promises altogether.
    const limiter = limited(tenant) ? this.deps.rateLimiter : undefined;
    if (limiter) await limiter.count(tenant, 'tenant', tenant.id, call.log, { peek: true });
    const { profile, negotiation, principal } = await this.admit(op, call, limiter);
    const owner = call.admitted?.owner ?? ownerOf(principal, call.profileUrl);
    if (call.resolveId) {
      const resolved = await call.resolveId(owner);
      if (call.id === undefined && resolved !== undefined) call.id = resolved;
    }
    const caller: Caller = { profileUrl: call.profileUrl, profile, active: negotiation.active, principal, owner };
    if (!caller.active.has(op.capability)) return { ...incompatible(op, tenant, negotiation), replayed: false };
    if (op.answers) {
      const kept = this.keptAnswer(op, call, negotiation);
      if (kept?.answer) return keptResponse(kept.answer);
      // A kept answer was made for these very payload bytes, which passed validation then: only a miss validates.
      const answer = await this.run(op, call, caller, negotiation, this.validate(op, call.payload));
      return kept ? keptResponse(this.answers.set(tenant, kept.scope, kept.key, answer)) : { ...answer, replayed: false };
    }
    const payload = this.validate(op, call.payload);
    const run = () => this.run(op, call, caller, negotiation, payload);
    if (!op.idempotency) return { ...(await run()), replayed: false };

    const key = call.idempotencyKey;
    if (key === undefined) {
      if (call.transport !== 'mcp' || op.idempotency.mcp === 'required') {
        const where = call.transport === 'mcp' ? 'meta["idempotency-key"]' : 'the Idempotency-Key header';
        throw new ProtocolError('missing_idempotency_key', `${op.name} requires ${where}`);
      }
      return { ...(await run()), replayed: false };
    }
    checkIdempotencyKey(key);
    const scope = this.scopes.of(owner);
    const { response, replayed } = await this.deps.idempotency.run(
      `idem:${tenant.id}:${scope}:${key}`,
      fingerprint([op.name, call.id ?? '', call.payloadBytes]),
      tenant.policies.idempotencyRetentionMs,
      run,
      (outcome) => this.deps.observeIdempotency?.({ tenant: tenant.id, operation: op.name, outcome }),
    );
    return { ...response, replayed };
  }

  /** Negotiates and authenticates the caller, then counts the call against its budget and the tenant's. */
  private async admit(op: OperationDefinition, call: OperationCall, limiter: RateLimiter | undefined): Promise<Admitted> {
    const { tenant } = call;
    const limit = async (principal?: Principal) => {
      if (!limiter) return;
      await limiter.count(tenant, 'caller', callerBudget(principal, call.address ?? 'unknown'), call.log);
      await limiter.count(tenant, 'tenant', tenant.id, call.log);
    };
    if (call.admitted) {
      const admitted = { ...call.admitted, negotiation: negotiated(tenant, call.admitted.profile) };
      await limit(admitted.principal);
      return admitted;
    }
    let admitted;
    try {
      const { profiles } = this.deps;
      const allowLoopback = tenant.policies.allowLoopbackProfiles;
      const profile = profiles.cached(call.profileUrl, allowLoopback) ?? (await profiles.get(call.profileUrl, allowLoopback, call.address));
      const negotiation = negotiated(tenant, profile);
      const request: AdmissionRequest = { capability: op.capability, profileUrl: call.profileUrl, profile, now: this.deps.now };
      if (call.http) request.http = call.http;
      const principal = await tenant.security.admit(request);
      admitted = { profile, negotiation, principal };
    } catch (error) {
      await limit(); // a failed call still spends its claim's budget; past it, the answer is 429
      throw error;
    }
    if (limiter) await limit(admitted.principal);
    return admitted;
  }

  /**
   * Where the answer to this call is kept, and the answer if it is: undefined when the operation's
   * answers are not kept now (its scope says so) or the request is too big to key. Synchronous, so
   * a hit costs no promise.
   */
  private keptAnswer(
    op: OperationDefinition,
    call: OperationCall,
    negotiation: Negotiated,
  ): { scope: AnswerScope; key: string; answer: CachedAnswer | undefined } | undefined {
    const scope = op.answers!(call.tenant, this.deps.now);
    if (!scope) return undefined;
    // The language is part of what an answer says (translated titles); the address is not.
    const caller = `${negotiation.key}\n${call.language ?? ''}`;
    const parts: { operation: string; caller: string; id?: string; payload: Buffer | string } = {
      operation: op.name,
      caller,
      payload: call.payloadBytes,
    };
    if (call.id !== undefined) parts.id = call.id;
    const key = this.answers.key(scope, parts);
    return key === undefined ? undefined : { scope, key, answer: this.answers.get(call.tenant, key) };
  }

  private validate(op: OperationDefinition, payload: unknown): unknown {
    const validator = this.validators.get(op.name);
    if (!validator) return payload;
    const result = validator(payload);
    if (!result.ok) throw new ProtocolError('invalid_request', result.message);
    return result.value;
  }

  private async run(
    op: OperationDefinition,
    call: OperationCall,
    caller: Caller,
    negotiation: Negotiated,
    payload: unknown,
  ): Promise<StoredResponse> {
    // Optional members are set one by one, as in operationCall: a spread builds and copies an object for each.
    const ctx: OperationContext = {
      tenant: call.tenant,
      caller,
      transport: call.transport,
      requestId: call.requestId,
      log: call.log,
      store: this.deps.store,
      secret: this.deps.secret,
      now: this.deps.now,
      client: clientOf(call),
    };
    if (call.idempotencyKey !== undefined) ctx.idempotencyKey = call.idempotencyKey;
    const input: OperationInput<unknown> = { payload };
    if (call.id !== undefined) input.id = call.id;
    const result = await op.handler(ctx, input);
    const status = result.outcome === 'success' ? (result.status ?? op.rest.status) : 200;
    // Failed outcomes that still show a live session (a complete escalated to the store) are bound too.
    const bound =
      op.embedded &&
      bindSession(op.embedded, result.body, {
        tenant: call.tenant,
        secret: this.deps.secret,
        now: this.deps.now(),
        transport: call.transport,
        owner: caller.owner,
      });
    return {
      status,
      outcome: result.outcome,
      body: negotiation.envelope(result.outcome, op.capability, bound?.body ?? result.body, bound?.services),
    };
  }
}

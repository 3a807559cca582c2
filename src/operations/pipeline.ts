/**
 * The transport-independent path of every operation call:
 * capability offered -> caller negotiated -> payload valid -> idempotency -> handler -> envelope.
 * REST and MCP both end here, so an operation behaves the same over either.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { GatewaySecret } from '../config/gateway-secret.js';
import { capabilityRegistry, checkVersion, negotiate } from '../protocol/negotiation.js';
import { JSONRPC, ProtocolError } from '../protocol/errors.js';
import type { ProfileFetcher } from '../protocol/profile-fetcher.js';
import type { HttpRequestDescriptor } from '../security/http-request.js';
import { PROTOCOL_VERSION } from '../protocol/version.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';
import { compile, type Validator } from '../validation/validator.js';
import type { Caller, Transport } from './context.js';
import { checkIdempotencyKey, fingerprint, Idempotency, type IdempotencyOutcome, type StoredResponse } from './idempotency.js';
import type { OperationDefinition } from './operation.js';

export interface OperationCall {
  tenant: Tenant;
  transport: Transport;
  requestId: string;
  log: FastifyBaseLogger;
  profileUrl: string;
  id?: string;
  payload: unknown;
  /** The payload exactly as sent, for the idempotency fingerprint. */
  payloadBytes: Buffer | string;
  idempotencyKey?: string;
  /** The HTTP request as received (signatures, credentials); absent for non-HTTP transports. */
  http?: HttpRequestDescriptor;
}

export interface OperationResponse extends StoredResponse {
  replayed: boolean;
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
}

export class Pipeline {
  private readonly validators = new Map<string, Validator<unknown>>();

  constructor(
    operations: readonly OperationDefinition[],
    private readonly deps: PipelineDeps,
  ) {
    for (const op of operations) if (op.input) this.validators.set(op.name, compile(op.input));
  }

  async execute(op: OperationDefinition, call: OperationCall): Promise<OperationResponse> {
    const { tenant } = call;
    if (!tenant.capabilities.has(op.capability)) {
      throw new ProtocolError(404, 'operation_unavailable', `${tenant.name} does not offer ${op.capability}`);
    }
    const negotiated = await this.negotiate(tenant, call.profileUrl);
    const principal = await tenant.security.admit({
      capability: op.capability,
      profileUrl: call.profileUrl,
      profile: negotiated.profile,
      now: this.deps.now,
      ...(call.http && { http: call.http }),
    });
    const caller: Caller = { ...negotiated, principal };
    if (!caller.active.has(op.capability)) {
      throw new ProtocolError(422, 'capability_not_negotiated', `${op.capability} is not in the caller's profile, so ${op.name} is not available to it`, {
        jsonRpcCode: JSONRPC.discovery,
      });
    }
    const payload = this.validate(op, call.payload);
    const run = () => this.run(op, call, caller, payload);
    if (!op.idempotency) return { ...(await run()), replayed: false };

    const key = call.idempotencyKey;
    if (key === undefined) {
      if (call.transport === 'rest' || op.idempotency.mcp === 'required') {
        const where = call.transport === 'rest' ? 'the Idempotency-Key header' : 'meta["idempotency-key"]';
        throw new ProtocolError(400, 'missing_idempotency_key', `${op.name} requires ${where}`);
      }
      return { ...(await run()), replayed: false };
    }
    checkIdempotencyKey(key);
    const scope = fingerprint([call.profileUrl]).slice(0, 16);
    const { response, replayed } = await this.deps.idempotency.run(
      `idem:${tenant.id}:${scope}:${key}`,
      fingerprint([op.name, call.id ?? '', call.payloadBytes]),
      tenant.policies.idempotencyRetentionMs,
      run,
      (outcome) => this.deps.observeIdempotency?.({ tenant: tenant.id, operation: op.name, outcome }),
    );
    return { ...response, replayed };
  }

  private async negotiate(tenant: Tenant, profileUrl: string): Promise<Omit<Caller, 'principal'>> {
    const profile = await this.deps.profiles.get(profileUrl, tenant.policies.allowLoopbackProfiles);
    checkVersion(profile, tenant.config.supported_versions ?? {});
    return { profileUrl, profile, active: negotiate(tenant.capabilities.keys(), profile) };
  }

  private validate(op: OperationDefinition, payload: unknown): unknown {
    const validator = this.validators.get(op.name);
    if (!validator) return payload;
    const result = validator(payload);
    if (!result.ok) throw new ProtocolError(400, 'invalid_request', result.message);
    return result.value;
  }

  private async run(op: OperationDefinition, call: OperationCall, caller: Caller, payload: unknown): Promise<StoredResponse> {
    const ctx = {
      tenant: call.tenant,
      caller,
      transport: call.transport,
      requestId: call.requestId,
      ...(call.idempotencyKey !== undefined && { idempotencyKey: call.idempotencyKey }),
      log: call.log,
      store: this.deps.store,
      secret: this.deps.secret,
      now: this.deps.now,
    };
    const result = await op.handler(ctx, { ...(call.id !== undefined && { id: call.id }), payload });
    const proto = { version: PROTOCOL_VERSION, status: result.outcome, capabilities: capabilityRegistry(caller.active) };
    const status = result.outcome === 'success' ? (result.status ?? op.rest.status) : 200;
    return { status, outcome: result.outcome, body: JSON.stringify({ proto, ...result.body }) };
  }
}

/**
 * The operation call every transport hands the pipeline, built in one place. A transport passes
 * only what it alone knows how to read (the caller's profile, the resource id, the payload, the
 * idempotency key and request id, each from its headers, tool arguments, message or page token);
 * what every HTTP-borne call shares (logger, client address, language, the request as signed) is
 * read here, the same way for REST, MCP, A2A and the embedded page, from `CallRequest`: the few
 * members of the HTTP request the pipeline reads, which Fastify's request has (the transports hand theirs in).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformProfile } from '../../schemas/profile.js';
import type { Transport } from '../capabilities/context.js';
import { preferredLanguage } from '../protocol/accept-language.js';
import type { Principal } from '../security/auth/principal.js';
import { describeHttpRequest, type HttpRequestDescriptor, type ReceivedRequest } from '../security/http-request.js';
import type { Tenant } from '../tenancy/tenant.js';

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
  /** See CallFacts.resolveId. */
  resolveId?: CallFacts['resolveId'];
  /** The HTTP request as received (signatures, credentials); absent for non-HTTP transports. */
  http?: HttpRequestDescriptor;
  /**
   * The client's network address (Fastify's `req.ip`: the real client behind TRUST_PROXY's
   * proxies): the budget of calls that verify no identity, and the buyer IP some stores want.
   */
  address?: string;
  /**
   * A caller the transport admitted itself: the embedded page, which its URL token admits for the
   * session's owner (`owner`, as the token names it) with the business's own profile. No profile is
   * fetched, and only the credential the page's host handed it is checked.
   */
  admitted?: { profile: PlatformProfile; principal: Principal; owner: string };
  /** The buyer's language (Accept-Language), for stores that translate. */
  language?: string;
}

/** What only the transport knows, each read its own way. */
export interface CallFacts {
  transport: Transport;
  requestId: string;
  /** The caller's profile URL: PROTO-Agent, MCP meta, or the page session's owner. */
  profileUrl: string;
  id?: string | undefined;
  payload: unknown;
  /** The payload's bytes as sent, when the transport has them alone (REST); else its JSON text. */
  payloadBytes?: Buffer | string;
  idempotencyKey?: string | undefined;
  /**
   * Told the caller's owner (security/auth/principal.ts ownerOf), once authenticated and before the
   * operation runs; the id it answers is the resource of a call that names none. A2A's contexts belong to their caller: the
   * context's checkout is known only once the caller is.
   */
  resolveId?: (owner: string) => Promise<string | undefined>;
  /** The embedded page's own admission; the request then carries no credential to check. */
  admitted?: OperationCall['admitted'];
}

/** What the pipeline reads of the HTTP request a call arrived on. */
export interface CallRequest extends ReceivedRequest {
  /** The request's logger (its id bound). */
  readonly log: FastifyBaseLogger;
  /** The client's address, behind the proxies TRUST_PROXY names. */
  readonly ip: string;
}

/** Optional members are set one by one: the spread idiom builds and copies an object for each (0.2-0.3 µs a call). */
export function operationCall(req: CallRequest, tenant: Tenant, facts: CallFacts): OperationCall {
  const { id, payload, idempotencyKey, resolveId, admitted } = facts;
  const call: OperationCall = {
    tenant,
    transport: facts.transport,
    requestId: facts.requestId,
    log: req.log,
    profileUrl: facts.profileUrl,
    payload,
    payloadBytes: facts.payloadBytes ?? (payload === undefined ? '' : JSON.stringify(payload)),
    address: req.ip,
  };
  if (id !== undefined) call.id = id;
  if (idempotencyKey !== undefined) call.idempotencyKey = idempotencyKey;
  if (resolveId) call.resolveId = resolveId;
  // A call the transport admitted itself is checked for no credential, so the request is not described.
  if (admitted) call.admitted = admitted;
  else call.http = describeHttpRequest(req, tenant.baseUrl);
  const language = preferredLanguage(req.headers['accept-language']);
  if (language) call.language = language;
  return call;
}

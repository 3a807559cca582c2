/**
 * Turns anything thrown while serving a request into the transport error a client should see:
 * protocol errors as they are, Fastify's body errors as clear 4xx, a session whose writes kept
 * conflicting as 409 `{kind}_update_conflict` (cart, checkout), an unreachable store or
 * backend (or one answering garbage) as 503, and everything else as a 500 that leaks no detail (the log keeps it).
 * And what the JSON-RPC transports (MCP, A2A) carry of it as their error's `data`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { BackendError, InvalidAnswerError } from '../../adapters/contract.js';
import type { TransportErrorCode } from '../protocol/error-catalogue.js';
import { ProtocolError } from '../protocol/errors.js';
import { SessionConflictError } from '../state/session-repository.js';
import { StoreUnavailableError } from '../state/store.js';

const FASTIFY_CODES: Record<string, [TransportErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'request body is larger than this gateway accepts'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'request body must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'request body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'request body is not valid JSON'],
};

/** The sessions the state store keeps, each with the code its conflicting writes answer. */
const CONFLICTS: Record<string, TransportErrorCode> = { cart: 'cart_update_conflict', checkout: 'checkout_update_conflict' };

export function toProtocolError(error: unknown, log: FastifyBaseLogger): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof StoreUnavailableError) {
    log.warn({ err: error }, 'state store unavailable');
    return new ProtocolError('store_unavailable', 'the state store is unavailable; retry shortly', { retryAfterSeconds: 1 });
  }
  if (error instanceof SessionConflictError) {
    const code = CONFLICTS[error.kind];
    if (code) return new ProtocolError(code, error.message, { retryAfterSeconds: 1 });
  }
  if (error instanceof InvalidAnswerError) {
    log.error({ err: error }, 'backend answered an invalid shape');
    return new ProtocolError(
      'backend_invalid_response',
      'the store behind this gateway gave an answer this gateway cannot use; retry later',
      { retryAfterSeconds: 30 },
    );
  }
  if (error instanceof BackendError) {
    log.warn({ err: error }, 'backend unavailable');
    const retryAfterSeconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
    return new ProtocolError('backend_unavailable', 'the store behind this gateway is not answering; retry shortly', {
      retryAfterSeconds,
    });
  }
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return new ProtocolError(known[0], known[1]);
  // Any other refusal of the request by Fastify or a plugin (4xx): the request is what is wrong.
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new ProtocolError('invalid_request', fastifyError.message ?? 'invalid request');
  }
  log.error({ err: error }, 'unexpected error');
  return new ProtocolError('internal_error', 'unexpected server error');
}

/**
 * The `data` of the JSON-RPC error MCP and A2A answer a protocol error with: its code and HTTP
 * status, when to retry, the Bearer challenge REST sends as WWW-Authenticate, and, for the
 * identity failures, the protocol error response REST answers (`proto`, `messages`).
 */
export function jsonRpcErrorData(error: ProtocolError): Record<string, unknown> {
  const body = error.toBody();
  const challenge = error.extra.headers?.['www-authenticate'];
  return {
    code: error.code,
    http_status: error.status,
    ...(error.extra.retryAfterSeconds !== undefined && { retry_after: error.extra.retryAfterSeconds }),
    ...(challenge !== undefined && { www_authenticate: challenge }),
    ...('proto' in body && { proto: body.proto, messages: body.messages }),
  };
}

/**
 * Every code the gateway answers with, in one table (the model is Fastify's own lib/errors.js):
 *   - transport errors (spec part 1 §7, layer 1), which stop processing: the HTTP status REST
 *     answers with `{code, content}` and the JSON-RPC code MCP and A2A answer with;
 *   - business message codes (layer 2), which travel in a normal answer's `messages`: the message
 *     type and, for errors, the severity the gateway sends unless the outcome calls for another.
 * `ProtocolError` names a transport row by key and takes its status and JSON-RPC code from here;
 * the message builders (messages.ts) name a message row. A code may be both (`not_found`), and a
 * transport error may be answered as a protocol error response whose one message it is (`body`).
 * docs/errors.md is generated from this table (`npm run docs:errors`).
 */
import type { Message } from '../../schemas/common.js';

/** JSON-RPC codes: JSON-RPC 2.0's own and those the spec names. */
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  discovery: -32001,
  server: -32000,
} as const;

export type Severity = NonNullable<Message['severity']>;

export interface CatalogueRow {
  /** One line: what went wrong, or what the message tells. */
  meaning: string;
  /** As a transport error: its HTTP status and JSON-RPC code. */
  status?: number;
  jsonRpc?: number;
  /** As a business message: its type, and for errors the severity it is sent with by default. */
  message?: Message['type'];
  severity?: Severity;
  /** Where only one part of the gateway answers it; every transport otherwise. */
  only?: string;
  /**
   * A transport error's body: `{code, content}` unless `messages`, a protocol error response (the
   * `proto` envelope with status "error" and this code as its one message, with the row's severity).
   */
  body?: 'messages';
}

const { parseError, invalidParams, discovery, server } = JSONRPC;

export const ERROR_CATALOGUE = {
  // 400: the request as sent cannot be processed.
  invalid_request: { status: 400, jsonRpc: invalidParams, meaning: 'The request is malformed: a field, parameter or header is wrong.' },
  invalid_json: { status: 400, jsonRpc: parseError, meaning: 'The body is not JSON, nests too deep, or names a forbidden key.' },
  missing_request_id: { status: 400, jsonRpc: invalidParams, meaning: 'A REST operation was sent without the Request-Id header.' },
  invalid_request_id: { status: 400, jsonRpc: invalidParams, meaning: 'Request-Id is not 1-200 visible ASCII characters.' },
  missing_idempotency_key: {
    status: 400,
    jsonRpc: invalidParams,
    meaning: 'A state-changing operation was sent without its idempotency key.',
  },
  invalid_idempotency_key: { status: 400, jsonRpc: invalidParams, meaning: 'The idempotency key is not 1-255 visible ASCII characters.' },
  invalid_cursor: {
    status: 400,
    jsonRpc: invalidParams,
    meaning: 'The pagination cursor is malformed, foreign or no longer valid for this search.',
  },
  request_too_large: {
    status: 400,
    jsonRpc: invalidParams,
    meaning: 'A lookup batch or JSON-RPC batch holds more entries than the business allows.',
  },
  algorithm_unsupported: {
    status: 400,
    jsonRpc: invalidParams,
    meaning: 'A signature uses a key type, curve or algorithm the verifier cannot use.',
  },
  digest_mismatch: { status: 400, jsonRpc: invalidParams, meaning: 'Content-Digest does not match the body.' },
  invalid_content_digest: { status: 400, jsonRpc: invalidParams, meaning: 'Content-Digest is malformed or uses no supported algorithm.' },
  invalid_profile_url: {
    status: 400,
    jsonRpc: discovery,
    meaning: 'The caller profile URL is missing, unreadable, not https, or its host does not resolve.',
  },
  unknown_tool: { status: 400, jsonRpc: invalidParams, meaning: 'tools/call names a tool this business does not offer.', only: 'MCP' },
  unknown_action: { status: 400, jsonRpc: invalidParams, meaning: 'The message names an action this agent does not take.', only: 'A2A' },
  not_supported: {
    status: 400,
    jsonRpc: invalidParams,
    meaning: 'The embedded page called an operation its session kind does not allow.',
    only: 'embedded page',
  },
  // 401: who is calling is not established.
  signature_missing: { status: 401, jsonRpc: server, meaning: 'A required HTTP message signature is absent or incomplete.' },
  signature_invalid: {
    status: 401,
    jsonRpc: server,
    meaning: 'The signature is malformed, does not cover what it must, or does not verify.',
  },
  signature_expired: { status: 401, jsonRpc: server, meaning: 'The signature is past its expiry or older than the accepted age.' },
  key_not_found: { status: 401, jsonRpc: server, meaning: "The signature's keyid is not among the signer's published keys." },
  authentication_required: { status: 401, jsonRpc: server, meaning: 'This operation needs a credential and none was sent.' },
  invalid_credentials: { status: 401, jsonRpc: server, meaning: 'The API key, bearer token or simulation secret is not valid.' },
  credential_not_accepted: { status: 401, jsonRpc: server, meaning: 'The credential is of a kind this business does not accept.' },
  // Upstream identity-linking.md "Error Handling": a protocol error response beside the Bearer challenge.
  identity_required: {
    status: 401,
    jsonRpc: server,
    message: 'error',
    severity: 'requires_buyer_review',
    body: 'messages',
    meaning: "A buyer identity token is needed: none sent, or one invalid, expired, revoked or another platform's.",
  },
  unauthorized: {
    status: 401,
    jsonRpc: server,
    message: 'error',
    severity: 'unrecoverable',
    only: 'embedded page',
    meaning: 'The page token is not valid or has expired; as a message (get_order), these credentials may not read the order.',
  },
  webhook_unverified: {
    status: 401,
    jsonRpc: server,
    meaning: "The delivery does not verify with the store's webhook secret.",
    only: 'backend webhooks',
  },
  // 403: known caller, not permitted.
  credential_profile_mismatch: {
    status: 403,
    jsonRpc: server,
    meaning: 'The credential was issued to another platform than the PROTO-Agent profile.',
  },
  unknown_client: { status: 403, jsonRpc: server, meaning: 'The bearer token was issued to a client not registered with this business.' },
  insufficient_scope: {
    status: 403,
    jsonRpc: server,
    message: 'error',
    severity: 'requires_buyer_review',
    body: 'messages',
    meaning: 'The bearer token lacks the scope this operation needs; the challenge names the full scope set.',
  },
  // 404: nothing is served here.
  not_found: {
    status: 404,
    jsonRpc: server,
    message: 'error',
    severity: 'unrecoverable',
    meaning: "No such endpoint or resource; as a message, the id does not exist or is not the caller's (info in lookup_catalog).",
  },
  unknown_tenant: { status: 404, jsonRpc: server, meaning: 'No business is served at this host and path.' },
  operation_unavailable: { status: 404, jsonRpc: server, meaning: 'The business does not offer the capability this operation belongs to.' },
  // 405, 409, 413, 415.
  method_not_allowed: { status: 405, jsonRpc: server, meaning: 'The stateless MCP endpoint takes POST only.', only: 'MCP' },
  idempotency_key_reused: { status: 409, jsonRpc: server, meaning: 'The idempotency key was used before with a different request.' },
  idempotency_request_in_progress: {
    status: 409,
    jsonRpc: server,
    meaning: 'A request with this idempotency key is still running; retry after Retry-After.',
  },
  cart_update_conflict: {
    status: 409,
    jsonRpc: server,
    meaning: 'Concurrent writes to the cart kept conflicting; retry after Retry-After.',
  },
  checkout_update_conflict: {
    status: 409,
    jsonRpc: server,
    meaning: 'Concurrent writes to the checkout kept conflicting; retry after Retry-After.',
  },
  payload_too_large: { status: 413, jsonRpc: server, meaning: 'The body is larger than the gateway accepts.' },
  unsupported_media_type: { status: 415, jsonRpc: server, meaning: 'The body is not application/json.' },
  // 422, 424: the caller's profile (discovery).
  profile_malformed: { status: 422, jsonRpc: discovery, meaning: 'The caller profile is not JSON or not a profile of this protocol.' },
  version_unsupported: {
    status: 422,
    jsonRpc: discovery,
    meaning: "The caller profile's protocol version is not one this business serves.",
  },
  profile_unreachable: {
    status: 424,
    jsonRpc: discovery,
    meaning: 'The caller profile could not be fetched (refused, redirected, slow, too large or not 200).',
  },
  // 429, 500, 503.
  rate_limited: { status: 429, jsonRpc: server, meaning: 'The caller or the business is past its rate limit; retry after Retry-After.' },
  internal_error: { status: 500, jsonRpc: server, meaning: 'Unexpected server error; nothing leaked, the request id finds the log line.' },
  store_unavailable: { status: 503, jsonRpc: server, meaning: "The gateway's state store is unreachable; retry after Retry-After." },
  backend_unavailable: { status: 503, jsonRpc: server, meaning: 'The store behind the gateway is not answering; retry after Retry-After.' },
  backend_invalid_response: {
    status: 503,
    jsonRpc: server,
    meaning: 'The store behind the gateway answered something unusable; retry later.',
  },
  authorization_server_unavailable: {
    status: 503,
    jsonRpc: server,
    meaning: "The authorization server's keys could not be fetched; retry shortly.",
  },

  // Business messages: errors.
  out_of_stock: {
    message: 'error',
    severity: 'recoverable',
    meaning: 'An item cannot be bought in the quantity asked (unrecoverable when nothing can be bought).',
  },
  invalid_quantity: { message: 'error', severity: 'recoverable', meaning: 'A line asks for a quantity the store does not sell.' },
  missing: {
    message: 'error',
    severity: 'recoverable',
    meaning: 'Something the store needs is not given yet (items, buyer fields, address, payment).',
  },
  invalid_address: { message: 'error', severity: 'recoverable', meaning: 'A destination address is not one the store can use.' },
  invalid_destination: {
    message: 'error',
    severity: 'recoverable',
    meaning: "A fulfillment destination is missing or not one of the method's.",
  },
  unsupported_fulfillment_method: { message: 'error', severity: 'recoverable', meaning: 'The store does not fulfill by this method type.' },
  invalid_option: { message: 'error', severity: 'recoverable', meaning: "A selected fulfillment option is not one of its group's." },
  fulfillment_unavailable: { message: 'error', severity: 'recoverable', meaning: 'No fulfillment option reaches this destination.' },
  fulfillment_unsupported: {
    message: 'error',
    severity: 'requires_buyer_input',
    meaning: 'The items need shipping the gateway cannot arrange: the buyer continues on the store.',
  },
  eligibility_invalid: { message: 'error', severity: 'recoverable', meaning: 'The store refused an eligibility claim at completion.' },
  capabilities_incompatible: {
    message: 'error',
    severity: 'unrecoverable',
    meaning: "The caller's negotiated capabilities lack this operation's.",
  },
  checkout_completed: { message: 'error', severity: 'unrecoverable', meaning: 'The checkout is completed and does not change any more.' },
  checkout_canceled: { message: 'error', severity: 'unrecoverable', meaning: 'The checkout was canceled and does not change any more.' },
  checkout_in_progress: {
    message: 'error',
    severity: 'recoverable',
    meaning: 'The order is being placed; only a retry of the same complete is accepted.',
  },
  price_changed: {
    message: 'error',
    severity: 'requires_buyer_review',
    meaning: 'The totals changed since the buyer last saw them; nothing was charged.',
  },
  order_incomplete: {
    message: 'error',
    severity: 'requires_buyer_review',
    meaning: 'The store did not accept the order as it stands; nothing was charged.',
  },
  payment_failed: { message: 'error', severity: 'recoverable', meaning: 'The payment was declined; nothing was charged.' },
  buyer_action_required: {
    message: 'error',
    severity: 'requires_buyer_input',
    meaning: "The payment needs the buyer on the store's own checkout page.",
  },
  payment_handler_unknown: {
    message: 'error',
    severity: 'recoverable',
    meaning: 'An instrument names a payment handler the business does not have.',
  },
  payment_instrument_unsupported: { message: 'error', severity: 'recoverable', meaning: 'The handler does not take this instrument type.' },
  // Business messages: warnings.
  discount_code_expired: { message: 'warning', meaning: 'The discount code has expired.' },
  discount_code_invalid: { message: 'warning', meaning: 'The discount code is unknown, malformed, or refused without a reason.' },
  discount_code_already_applied: { message: 'warning', meaning: 'The discount code is already applied.' },
  discount_code_combination_disallowed: {
    message: 'warning',
    meaning: 'The discount code cannot be combined with another active discount.',
  },
  discount_code_user_not_logged_in: { message: 'warning', meaning: 'The discount code needs a signed-in buyer.' },
  discount_code_user_ineligible: { message: 'warning', meaning: "The buyer does not meet the discount code's eligibility criteria." },
  discount_code_not_applicable: { message: 'warning', meaning: 'The discount code is valid but nothing in the cart qualifies.' },
  eligibility_not_accepted: { message: 'warning', meaning: 'The store does not accept this eligibility claim; it was ignored.' },
  filter_ignored: { message: 'warning', meaning: 'A catalog filter was not applied here.' },
  payment_confirmation_expired: {
    message: 'warning',
    meaning: "The buyer did not confirm the payment on the store's page in time; nothing was charged.",
  },
  completion_interrupted: { message: 'warning', meaning: 'An earlier complete was interrupted before payment; nothing was charged.' },
  invalid_webhook_url: { message: 'warning', meaning: "The platform profile's order webhook URL is not one the gateway will deliver to." },
  // Business messages: information.
  estimated_totals: { message: 'info', meaning: 'The totals leave out what cannot be priced yet.' },
  currency_converted: { message: 'info', meaning: "A price filter was converted into the store's currency." },
  currency_not_supported: { message: 'info', meaning: 'The store does not sell in the requested currency; prices are in another.' },
  order_canceled: { message: 'info', meaning: 'The store canceled the order.' },
} as const satisfies Record<string, CatalogueRow>;

type Catalogue = typeof ERROR_CATALOGUE;
export type ErrorCode = keyof Catalogue;
/** The codes a `ProtocolError` may carry: the rows with an HTTP status. */
export type TransportErrorCode = { [C in ErrorCode]: Catalogue[C] extends { status: number } ? C : never }[ErrorCode];
/** The codes a business message may carry. */
export type MessageCode = { [C in ErrorCode]: Catalogue[C] extends { message: string } ? C : never }[ErrorCode];

/** The rows as plain values, for what reads them all (the generated docs, the OpenAPI description). */
export const catalogueRows = (): ReadonlyArray<[ErrorCode, CatalogueRow]> =>
  Object.entries(ERROR_CATALOGUE) as Array<[ErrorCode, CatalogueRow]>;

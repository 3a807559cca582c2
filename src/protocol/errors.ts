/**
 * Transport-layer errors (spec part 1 §7, layer 1): they stop processing. Each names a row of the
 * error catalogue (error-catalogue.ts), which gives its HTTP status, JSON-RPC code and body: REST
 * renders it as that status with `{code, content}` or, for the identity failures, a protocol error
 * response; MCP and A2A as a JSON-RPC `error`. Business outcomes are not errors: they travel in a
 * normal response with `proto.status = "error"` and messages.
 */
import type { ErrorResponse, TransportError } from '../../schemas/common.js';
import { ERROR_CATALOGUE, JSONRPC, type CatalogueRow, type Severity, type TransportErrorCode } from './error-catalogue.js';
import { PROTOCOL_VERSION } from './version.js';

/** Longest `content` an error carries: messages quote request input, which must never come back unbounded. */
const MAX_ERROR_CONTENT = 1000;

/** `text` cut to `max` characters, marked with an ellipsis when cut. */
export const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What a call site adds to the catalogue's row: when to retry, and headers REST sends (WWW-Authenticate). */
export interface ErrorExtra {
  retryAfterSeconds?: number;
  headers?: Record<string, string>;
}

export class ProtocolError extends Error {
  readonly status: number;
  /** The JSON-RPC error code for this failure on MCP and A2A. */
  readonly jsonRpcCode: number;
  readonly code: string;
  readonly extra: ErrorExtra;
  /** Its message's severity when its body is a protocol error response (the catalogue's `body: 'messages'`). */
  private readonly messageSeverity: Severity | undefined;

  constructor(code: TransportErrorCode, message: string, extra: ErrorExtra = {}) {
    super(bounded(message, MAX_ERROR_CONTENT));
    this.name = 'ProtocolError';
    const row = ERROR_CATALOGUE[code];
    this.status = row.status;
    this.code = code;
    this.jsonRpcCode = row.jsonRpc;
    this.extra = extra;
    const { body, severity } = row as CatalogueRow;
    this.messageSeverity = body === 'messages' ? severity : undefined;
  }

  /**
   * An OAuth endpoint's refusal as oidc-provider made it: its status and RFC 6749 §5.2 code are the
   * OAuth registry's, not the catalogue's, so they pass through as they are.
   */
  static oauth(status: number, code: string, message: string): ProtocolError {
    const error = new ProtocolError('invalid_request', message);
    return Object.assign(error, { status, code, jsonRpcCode: status === 400 ? JSONRPC.invalidParams : JSONRPC.server });
  }

  /** The body REST answers with (and MCP and A2A carry in the JSON-RPC error's data, when it is a protocol error response). */
  toBody(): TransportError | ErrorResponse {
    if (this.messageSeverity === undefined) return { code: this.code, content: this.message };
    return {
      proto: { version: PROTOCOL_VERSION, status: 'error' },
      messages: [{ type: 'error', code: this.code, content: this.message, severity: this.messageSeverity }],
    };
  }
}

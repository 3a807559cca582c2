/**
 * Transport-layer errors (spec part 1 §7, layer 1): they stop processing. Each names a row of the
 * error catalogue (error-catalogue.ts), which gives its HTTP status and JSON-RPC code: REST renders
 * it as that status with `{code, content}`, MCP and A2A as a JSON-RPC `error`. Business outcomes
 * are not errors: they travel in a normal response with `proto.status = "error"` and messages.
 */
import { ERROR_CATALOGUE, JSONRPC, type TransportErrorCode } from './error-catalogue.js';

/** Longest `content` an error carries: messages quote request input, which must never come back unbounded. */
export const MAX_ERROR_CONTENT = 1000;

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

  constructor(code: TransportErrorCode, message: string, extra: ErrorExtra = {}) {
    super(bounded(message, MAX_ERROR_CONTENT));
    this.name = 'ProtocolError';
    const row = ERROR_CATALOGUE[code];
    this.status = row.status;
    this.code = code;
    this.jsonRpcCode = row.jsonRpc;
    this.extra = extra;
  }

  /**
   * An OAuth endpoint's refusal as oidc-provider made it: its status and RFC 6749 §5.2 code are the
   * OAuth registry's, not the catalogue's, so they pass through as they are.
   */
  static oauth(status: number, code: string, message: string): ProtocolError {
    const error = new ProtocolError('invalid_request', message);
    return Object.assign(error, { status, code, jsonRpcCode: status === 400 ? JSONRPC.invalidParams : JSONRPC.server });
  }

  toBody(): { code: string; content: string } {
    return { code: this.code, content: this.message };
  }
}

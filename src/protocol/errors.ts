/**
 * Transport-layer errors (spec part 1 §7, layer 1): they stop processing. REST renders them as
 * an HTTP status with `{code, content}`, MCP as a JSON-RPC `error`. Business outcomes are not
 * errors: they travel in a normal response with `proto.status = "error"` and messages.
 */

/** JSON-RPC codes the spec names. */
export const JSONRPC = {
  invalidRequest: -32600,
  invalidParams: -32602,
  discovery: -32001,
  server: -32000,
  internal: -32603,
} as const;

/** Longest `content` an error carries: messages quote request input, which must never come back unbounded. */
export const MAX_ERROR_CONTENT = 1000;

/** `text` cut to `max` characters, marked with an ellipsis when cut. */
export const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { jsonRpcCode?: number; retryAfterSeconds?: number; headers?: Record<string, string> } = {},
  ) {
    super(bounded(message, MAX_ERROR_CONTENT));
    this.name = 'ProtocolError';
  }

  /** The JSON-RPC error code for this failure on MCP. */
  get jsonRpcCode(): number {
    if (this.extra.jsonRpcCode !== undefined) return this.extra.jsonRpcCode;
    if (this.status === 400) return JSONRPC.invalidParams;
    return JSONRPC.server;
  }

  toBody(): { code: string; content: string } {
    return { code: this.code, content: this.message };
  }
}

export const badRequest = (code: string, message: string) => new ProtocolError(400, code, message);

/** Discovery failures (profile URL, fetch, content, version) use -32001 on MCP. */
export const discoveryError = (status: 400 | 422 | 424, code: string, message: string) =>
  new ProtocolError(status, code, message, { jsonRpcCode: JSONRPC.discovery });

export const unavailable = (message: string, retryAfterSeconds = 1) =>
  new ProtocolError(503, 'service_unavailable', message, { retryAfterSeconds });

/**
 * The protocol's errors as A2A JSON-RPC errors, in the version the client speaks: the JSON-RPC
 * code as on MCP (-32602, -32001, -32000), and the protocol's own code and HTTP status beside it.
 * 0.3 clients read them as `data: {code, http_status, retry_after}`, as before A2A 1.0; 1.0 wants
 * `data` as a list of typed details (A2A 1.0 §9.5), so there they are a `google.rpc.ErrorInfo` whose
 * reason is the code, on the protocol's domain, its metadata the same members as strings.
 */
import { ERROR_INFO_TYPE } from '@a2a-js/sdk/errors';
import { A2A_BINDING } from '../../protocol/capability-registry.js';
import type { ProtocolError } from '../../protocol/errors.js';
import { A2A_V03 } from './wire-version.js';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** `ErrorInfo.domain` of the protocol's own errors: the host its A2A extension is named on. */
const PROTOCOL_ERROR_DOMAIN = new URL(A2A_BINDING.extension).host;

/** JSON-RPC's own code for a body that is not JSON. */
const PARSE_ERROR = -32700;

export function rpcErrorOf(error: ProtocolError, version: string): RpcError {
  const code = error.code === 'invalid_json' ? PARSE_ERROR : error.jsonRpcCode;
  const retryAfter = error.extra.retryAfterSeconds;
  const detail = { code: error.code, http_status: error.status, ...(retryAfter !== undefined && { retry_after: retryAfter }) };
  if (version === A2A_V03) return { code, message: error.message, data: detail };
  const metadata = Object.fromEntries(Object.entries(detail).map(([name, value]) => [name, String(value)]));
  const info = { '@type': ERROR_INFO_TYPE, reason: error.code.toUpperCase(), domain: PROTOCOL_ERROR_DOMAIN, metadata };
  return { code, message: error.message, data: [info] };
}

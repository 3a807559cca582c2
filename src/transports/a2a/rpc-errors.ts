/**
 * The protocol's errors as A2A JSON-RPC errors, in the version the client speaks: the JSON-RPC
 * code as on MCP (-32602, -32001, -32000), and the protocol's own code and HTTP status beside it.
 * 0.3 clients read them as `data` as on MCP (`{code, http_status, retry_after, www_authenticate}`, and an
 * identity failure's protocol error response as `proto` and `messages`); 1.0 wants `data` as a list of
 * typed details (A2A 1.0 §9.5), so there they are a `google.rpc.ErrorInfo` whose reason is the code, on
 * the protocol's domain, its metadata the same plain members as strings, followed by the protocol
 * error response, when there is one, as a `google.protobuf.Struct`.
 */
import { ERROR_INFO_TYPE } from '@a2a-js/sdk/errors';
import { A2A_BINDING } from '../../protocol/capability-registry.js';
import type { ProtocolError } from '../../protocol/errors.js';
import { jsonRpcErrorData } from '../error-mapping.js';
import { A2A_V03 } from './wire-version.js';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** `ErrorInfo.domain` of the protocol's own errors: the host its A2A extension is named on. */
const PROTOCOL_ERROR_DOMAIN = new URL(A2A_BINDING.extension).host;

/** protobuf's JSON form of a well-known Struct inside an Any. */
const STRUCT_TYPE = 'type.googleapis.com/google.protobuf.Struct';

/** JSON-RPC's own code for a body that is not JSON. */
const PARSE_ERROR = -32700;

export function rpcErrorOf(error: ProtocolError, version: string): RpcError {
  const code = error.code === 'invalid_json' ? PARSE_ERROR : error.jsonRpcCode;
  const { proto, messages, ...plain } = jsonRpcErrorData(error);
  if (version === A2A_V03) return { code, message: error.message, data: jsonRpcErrorData(error) };
  const metadata = Object.fromEntries(Object.entries(plain).map(([name, value]) => [name, String(value)]));
  const info = { '@type': ERROR_INFO_TYPE, reason: error.code.toUpperCase(), domain: PROTOCOL_ERROR_DOMAIN, metadata };
  const response = proto === undefined ? [] : [{ '@type': STRUCT_TYPE, value: { proto, messages } }];
  return { code, message: error.message, data: [info, ...response] };
}

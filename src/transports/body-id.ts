/**
 * A payload may repeat the id of the resource the request names (REST bodies, spec part 1 §4.2;
 * the checkout body id is deprecated, §4.3): it is dropped before validation, and one that
 * contradicts the named id is refused. REST and MCP checkout payloads share this rule.
 */
import { ProtocolError } from '../protocol/errors.js';

/** `payload` without its `id`; 400 when it differs from `id` (named by `where`). */
export function withoutBodyId(payload: unknown, id: string | undefined, where: string): unknown {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || !('id' in payload)) return payload;
  const { id: bodyId, ...rest } = payload as Record<string, unknown>;
  if (id !== undefined && bodyId !== id) throw new ProtocolError('invalid_request', `$.id does not match ${where}`);
  return rest;
}

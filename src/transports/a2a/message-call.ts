/**
 * Reads an A2A message as one operation call (upstream binding `checkout-a2a.md`): a DataPart
 * `{action: <operation>, …arguments}` names the operation; `id` is the resource id of operations
 * that take one and every other member is the request body, as on REST. Payment for
 * `complete_checkout` may come apart, under `a2a.proto.checkout.payment_data` (and
 * `a2a.proto.checkout.risk_signals`). A message without an action is free text: `help`.
 * Messages arrive as the SDK's A2A 1.0 types, whichever version the client spoke.
 */
import type { Message, Part } from '@a2a-js/sdk';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { bounded, ProtocolError } from '../../protocol/errors.js';
import type { CapabilityName } from '../../protocol/capability-registry.js';

const PAYMENT_DATA_KEY = 'a2a.proto.checkout.payment_data';
const RISK_SIGNALS_KEY = 'a2a.proto.checkout.risk_signals';

/** The DataPart key of a capability's resource: `dev.proto.shopping.checkout` -> `a2a.proto.checkout`. */
export const resourceKey = (capability: CapabilityName): string => `a2a.proto.${capability.replace(/^dev\.proto\.shopping\./, '')}`;

export type MessageCall = { kind: 'help' } | { kind: 'call'; op: OperationDefinition; id?: string; payload: unknown };

type Data = Record<string, unknown>;
const isObject = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The objects the message's DataParts carry. */
const dataOf = (parts: readonly Part[]): Data[] =>
  parts.flatMap((part) => (part.content?.$case === 'data' && isObject(part.content.value) ? [part.content.value] : []));

/** Upstream sends one instrument as `payment_data`; a `{instruments}` object is the protocol's own `payment`. */
const paymentOf = (data: Data) => (Array.isArray(data.instruments) ? data : { instruments: [{ selected: true, ...data }] });

export function readMessage(message: Message, offered: ReadonlyMap<string, OperationDefinition>): MessageCall {
  if (message.parts.length === 0) throw new ProtocolError('invalid_request', 'message.parts must hold at least one part');
  const data = dataOf(message.parts);
  const actions = data.filter((d) => d.action !== undefined);
  if (actions.length === 0) return { kind: 'help' };
  if (actions.length > 1) throw new ProtocolError('invalid_request', 'a message carries one action; this one has several');
  const { action, id, ...members } = actions[0]!;
  const op = typeof action === 'string' ? offered.get(action) : undefined;
  if (!op) {
    const names = [...offered.keys()].join(', ');
    throw new ProtocolError('unknown_action', `unknown action ${bounded(JSON.stringify(action), 100)}; this agent takes ${names}`);
  }
  const payment = data.find((d) => d[PAYMENT_DATA_KEY] !== undefined)?.[PAYMENT_DATA_KEY];
  const signals = data.find((d) => d[RISK_SIGNALS_KEY] !== undefined)?.[RISK_SIGNALS_KEY];
  if ((payment !== undefined || signals !== undefined) && op.name !== 'complete_checkout') {
    throw new ProtocolError('invalid_request', `${PAYMENT_DATA_KEY} and ${RISK_SIGNALS_KEY} go with complete_checkout only`);
  }
  if (payment !== undefined && !isObject(payment)) throw new ProtocolError('invalid_request', `${PAYMENT_DATA_KEY} must be an object`);
  // Operations without a resource id (catalog) name products by `id` in their body.
  const body: Data = op.mcp.id || id === undefined ? members : { id, ...members };
  if (payment) body.payment = paymentOf(payment);
  if (signals !== undefined) body.signals = signals;
  if (op.mcp.id && id !== undefined && typeof id !== 'string') throw new ProtocolError('invalid_request', 'id must be a string');
  return {
    kind: 'call',
    op,
    ...(op.mcp.id && typeof id === 'string' && { id }),
    payload: op.input ? body : undefined,
  };
}

/** The answer to free text: no language model here, so the structured actions this agent takes. */
export function helpText(offered: ReadonlyMap<string, OperationDefinition>): string {
  const lines = [...offered.values()].map((op) => `- ${op.name}${op.mcp.id ? ' (id)' : ''}: ${op.title}`);
  return [
    'This agent takes structured requests only: send a DataPart {"action": "<name>", …arguments},',
    'the arguments being the REST request body (and "id" for the resource).',
    `Pay at complete_checkout with a DataPart member "${PAYMENT_DATA_KEY}" (risk signals under "${RISK_SIGNALS_KEY}").`,
    'Actions:',
    ...lines,
  ].join('\n');
}

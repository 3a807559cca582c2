/**
 * The agent's answer to a message: an A2A Message in the caller's context whose DataPart carries
 * the operation's resource under `a2a.proto.<capability>` (upstream `checkout-a2a.md`), with a
 * TextPart of its messages when the outcome failed. No Task is ever made: every operation answers at once.
 */
import { randomUUID } from 'node:crypto';
import { Role, type Message, type Part } from '@a2a-js/sdk';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { resourceKey } from './message-call.js';

const dataPart = (data: Record<string, unknown>): Part => ({
  content: { $case: 'data', value: data },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** The agent's turn in the caller's context. */
export const agentMessage = (contextId: string, parts: Part[]): Message => ({
  messageId: randomUUID(),
  contextId,
  taskId: '',
  role: Role.ROLE_AGENT,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** The resource as the binding names it; a completed checkout also carries `order_id` and `order_permalink_url`. */
function resourceOf(body: Record<string, unknown>): Record<string, unknown> {
  const order = body.order as { id?: string; permalink_url?: string } | undefined;
  return order?.id ? { ...body, order_id: order.id, order_permalink_url: order.permalink_url } : body;
}

/** The parts answering an operation's response body: its resource, and on a failed outcome its messages as text. */
export function answerParts(op: OperationDefinition, body: Record<string, unknown>, failed: boolean): Part[] {
  const parts = [dataPart({ [resourceKey(op.capability)]: resourceOf(body) })];
  const messages = (body.messages as Array<{ content?: string }> | undefined) ?? [];
  if (failed) parts.push(textPart(messages.map((m) => m.content).join('\n')));
  return parts;
}

/**
 * One A2A message as one operation of the table, run by the same pipeline as REST: the caller's
 * profile from the PROTO-Agent header, signatures, credentials and rate limits, idempotency keyed
 * by the message's `messageId`, and the context's own checkout once the pipeline knows who calls.
 */
import { randomUUID } from 'node:crypto';
import type { Message } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { FastifyRequest } from 'fastify';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { operationCall } from '../../pipeline/operation-call.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { parseAgentHeader } from '../../protocol/agent-header.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { meterMessage } from '../rate-limiter.js';
import { agentMessage, answerParts, textPart } from './agent-answer.js';
import type { Conversations } from './conversation.js';
import { helpText, readMessage, resourceKey, type MessageCall } from './message-call.js';

const MESSAGE_ID = /^[\x21-\x7e]{1,255}$/;

/** The message checked as this agent takes it; its messageId is also the idempotency key. */
function checked(message: Message | undefined): Message {
  if (!message || !MESSAGE_ID.test(message.messageId)) {
    throw new ProtocolError('invalid_request', 'params.message must be a message whose messageId is 1-255 visible ASCII characters');
  }
  // A2A 1.0 §3.4.2: a taskId names an existing task, and this agent keeps none.
  if (message.taskId !== '')
    throw new TaskNotFoundError(`no task ${JSON.stringify(message.taskId.slice(0, 100))}: this agent keeps no tasks`);
  return message;
}

export class MessageSender {
  constructor(
    private readonly pipeline: Pipeline,
    private readonly conversations: Conversations,
  ) {}

  /** The agent's answer to `message`, in its context (a fresh one when it names none). */
  async send(req: FastifyRequest, tenant: Tenant, offered: ReadonlyMap<string, OperationDefinition>, sent: Message | undefined) {
    const message = checked(sent);
    const contextId = message.contextId !== '' ? message.contextId : randomUUID();
    const read = readMessage(message, offered);
    if (read.kind === 'help') {
      await meterMessage(req, 'message/send'); // no operation: the pipeline counts nothing
      return agentMessage(contextId, [textPart(helpText(offered))]);
    }
    return this.call(req, tenant, { ...read, messageId: message.messageId, contextId });
  }

  private async call(req: FastifyRequest, tenant: Tenant, turn: Call): Promise<Message> {
    const { op, contextId } = turn;
    req.operation = op.name;
    const profileUrl = parseAgentHeader(req.headers['proto-agent']).profile;
    // The context is its owner's (security/auth/principal.ts ownerOf): known once the pipeline has admitted the caller.
    let owner: string | undefined;
    const resolveId = async (callerOwner: string) => {
      owner = callerOwner;
      if (!op.mcp.id || turn.id !== undefined) return undefined;
      const id = await this.conversations.lastId(tenant, owner, contextId, op.capability);
      if (id === undefined) {
        throw new ProtocolError('invalid_request', `${op.name} needs "id" (no ${resourceKey(op.capability)} in this context yet)`);
      }
      return id;
    };
    const header = req.headers['request-id'];
    const response = await this.pipeline.execute(
      op,
      operationCall(req, tenant, {
        transport: 'a2a',
        requestId: typeof header === 'string' ? header : req.id,
        profileUrl,
        id: turn.id,
        resolveId,
        payload: turn.payload,
        // The binding's duplicate detection: a retried message reuses its messageId.
        idempotencyKey: turn.messageId,
      }),
    );
    const body = JSON.parse(response.body) as Record<string, unknown>;
    if (response.outcome === 'success' && owner) await this.conversations.remember(tenant, owner, contextId, op.capability, body);
    return agentMessage(contextId, answerParts(op, body, response.outcome === 'error'));
  }
}

type Call = Extract<MessageCall, { kind: 'call' }> & { messageId: string; contextId: string };

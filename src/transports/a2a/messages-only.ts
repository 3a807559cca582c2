/**
 * The SDK's request handler interface for an agent that answers every message at once: sending
 * (and streaming) runs the one operation the message names; there are never Tasks to get, cancel,
 * list or subscribe to, nor push notifications. The SDK's DefaultRequestHandler is not used: it
 * turns every executor error into a failed Task, where the protocol wants its error.
 */
import type { AgentCard, Message, SendMessageRequest } from '@a2a-js/sdk';
import { PushNotificationNotSupportedError, RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';

/** The one thing this agent does: answer a message. */
type SendMessage = (request: SendMessageRequest) => Promise<Message>;

/** Any task asked for: none exists (a 0.3 request may name no id at all). */
const noTask = async (request: { id?: unknown }): Promise<never> => {
  if (typeof request.id !== 'string' || request.id.trim() === '') throw new RequestMalformedError('params.id must name a task');
  throw new TaskNotFoundError(`no task ${JSON.stringify(request.id.slice(0, 100))}: this agent answers with messages and keeps no tasks`);
};

const noPush = async (): Promise<never> => {
  throw new PushNotificationNotSupportedError();
};

export function messagesOnly(card: AgentCard, send: SendMessage): A2ARequestHandler {
  return {
    getAgentCard: async () => card,
    getAuthenticatedExtendedAgentCard: async (): Promise<never> => {
      throw new UnsupportedOperationError('this agent has no extended card');
    },
    sendMessage: send,
    async *sendMessageStream(request) {
      yield { payload: { $case: 'message', value: await send(request) } };
    },
    getTask: noTask,
    cancelTask: noTask,
    async *resubscribe(request) {
      yield await noTask(request);
    },
    listTasks: async () => ({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }),
    createTaskPushNotificationConfig: noPush,
    getTaskPushNotificationConfig: noPush,
    listTaskPushNotificationConfigs: noPush,
    deleteTaskPushNotificationConfig: noPush,
  };
}

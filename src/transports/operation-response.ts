/** An operation's answer as every HTTP binding that answers with the REST bytes sends it (REST, the embedded page). */
import type { FastifyReply } from 'fastify';
import type { OperationResponse } from '../pipeline/pipeline.js';

export function sendOperationResponse(reply: FastifyReply, response: OperationResponse): FastifyReply {
  reply.code(response.status).type('application/json; charset=utf-8');
  if (response.replayed) reply.header('idempotent-replayed', 'true');
  return reply.send(response.bytes ?? response.body);
}

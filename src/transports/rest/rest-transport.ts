/**
 * REST binding: one Fastify route per operation, generated from the operation table.
 * Reads the protocol headers, hands the call to the pipeline, writes its bytes back.
 * A Fastify plugin, registered with the operations and the pipeline.
 */
import { languageOf } from '../accept-language.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAgentHeader } from '../../protocol/agent-header.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import type { OperationResponse, Pipeline } from '../../pipeline/pipeline.js';
import { describeHttpRequest } from '../../security/http-request.js';
import { withoutBodyId } from '../body-id.js';
import { COUNTED_PER_CALL } from '../rate-limiter.js';
import { requireRequestId, tenantOf } from '../request-context.js';

const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** On REST the body may repeat the path id (spec §4.2); it must then agree with it. */
function payloadOf(req: FastifyRequest, op: OperationDefinition, id: string | undefined): unknown {
  if (!op.input) return undefined;
  const body = req.body ?? {};
  return id === undefined ? body : withoutBodyId(body, id, 'the id in the path');
}

export function sendOperationResponse(reply: FastifyReply, response: OperationResponse): FastifyReply {
  reply.code(response.status).type('application/json; charset=utf-8');
  if (response.replayed) reply.header('idempotent-replayed', 'true');
  return reply.send(response.body);
}

export async function restTransport(
  app: FastifyInstance,
  { operations, pipeline }: { operations: readonly OperationDefinition[]; pipeline: Pipeline },
): Promise<void> {
  for (const op of operations) {
    app.route({
      method: op.rest.method,
      url: toFastifyPath(op.rest.path),
      config: COUNTED_PER_CALL,
      handler: async (req, reply) => {
        req.operation = op.name;
        req.transport = 'rest';
        const tenant = tenantOf(req);
        const requestId = requireRequestId(req);
        const agent = parseAgentHeader(req.headers['proto-agent']);
        const id = (req.params as { id?: string }).id;
        if (id !== undefined && (id.length === 0 || id.length > 200))
          throw new ProtocolError(400, 'invalid_request', 'id must be 1-200 characters');
        const idempotencyKey = single(req.headers['idempotency-key']);
        const response = await pipeline.execute(op, {
          tenant,
          transport: 'rest',
          requestId,
          log: req.log,
          profileUrl: agent.profile,
          ...(id !== undefined && { id }),
          payload: payloadOf(req, op, id),
          payloadBytes: req.rawBody ?? '',
          ...(idempotencyKey !== undefined && { idempotencyKey }),
          http: describeHttpRequest(req, tenant.baseUrl),
          address: req.ip,
          ...languageOf(req),
        });
        return sendOperationResponse(reply, response);
      },
    });
  }
}

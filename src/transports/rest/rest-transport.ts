/**
 * REST binding: one Fastify route per operation, generated from the operation table.
 * Reads the protocol headers, hands the call to the pipeline, writes its bytes back.
 * A Fastify plugin, registered with the operations and the pipeline.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseAgentHeader } from '../../protocol/agent-header.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { operationCall } from '../../pipeline/operation-call.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { withoutBodyId } from '../body-id.js';
import { sendOperationResponse } from '../operation-response.js';
import { COUNTED_PER_CALL } from '../rate-limiter.js';
import { headerValue, requireRequestId, tenantOf } from '../request-context.js';
import fp from 'fastify-plugin';

const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** On REST the body may repeat the path id (spec §4.2); it must then agree with it. */
function payloadOf(req: FastifyRequest, op: OperationDefinition, id: string | undefined): unknown {
  if (!op.input) return undefined;
  const body = req.body ?? {};
  return id === undefined ? body : withoutBodyId(body, id, 'the id in the path');
}

async function addRestTransport(
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
          throw new ProtocolError('invalid_request', 'id must be 1-200 characters');
        const response = await pipeline.execute(
          op,
          operationCall(req, tenant, {
            transport: 'rest',
            requestId,
            profileUrl: agent.profile,
            id,
            payload: payloadOf(req, op, id),
            payloadBytes: req.rawBody ?? '',
            idempotencyKey: headerValue(req, 'idempotency-key'),
          }),
        );
        return sendOperationResponse(reply, response);
      },
    });
  }
}

export const restTransport = fp(addRestTransport, {
  name: 'rest-transport',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rest-errors', 'rate-limits'],
  decorators: { request: ['tenant', 'operation', 'transport', 'rawBody'] },
});

/**
 * The page's one way to read and change its session: `POST {page}/rpc` with
 * `{operation, payload}`. The operation must be one the page's kind allows, the session id comes
 * from the URL token alone, and the call runs the same operation definition through the same
 * pipeline as REST and MCP (transport `embedded`), so the answer is the REST answer, status
 * code included. The token admits the call for the session's owner with the business's own
 * profile (every capability of the tenant active); budgets count the client's address.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { languageOf } from '../accept-language.js';
import type { SessionKind } from '../../config/embedded-settings.js';
import type { PageSession } from '../../pipeline/embedded/page-token.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { bounded, ProtocolError } from '../../protocol/errors.js';
import { ANONYMOUS } from '../../security/auth/principal.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { compile } from '../../../schemas/validator.js';
import { withoutBodyId } from '../body-id.js';
import { sendOperationResponse } from '../rest/rest-transport.js';

/** What a page may do with its own session: never create one, never touch another. */
export const PAGE_OPERATIONS: Readonly<Record<SessionKind, readonly string[]>> = {
  cart: ['get_cart', 'update_cart', 'cancel_cart'],
  checkout: ['get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout'],
};

const PageRequest = Type.Object(
  {
    operation: Type.String({ minLength: 1, maxLength: 100 }),
    /** The body REST takes for this operation. */
    payload: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);
type PageRequest = Static<typeof PageRequest>;

const checkRequest = compile<PageRequest>(PageRequest);

export interface PageCall {
  tenant: Tenant;
  kind: SessionKind;
  session: PageSession;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

export function pageRpc(operations: readonly OperationDefinition[], pipeline: Pipeline) {
  const byName = new Map(operations.map((op) => [op.name, op]));

  return async function call(req: FastifyRequest, reply: FastifyReply, { tenant, kind, session }: PageCall): Promise<FastifyReply> {
    if (req.body === undefined)
      throw new ProtocolError(400, 'invalid_request', 'the request body must be a JSON object {operation, payload}');
    const checked = checkRequest(req.body);
    if (!checked.ok) throw new ProtocolError(400, 'invalid_request', checked.message);
    const { operation, payload: sent } = checked.value;
    const op = PAGE_OPERATIONS[kind].includes(operation) ? byName.get(operation) : undefined;
    if (!op) {
      throw new ProtocolError(
        400,
        'not_supported',
        `a ${kind} page may call ${PAGE_OPERATIONS[kind].join(', ')}; not ${bounded(operation, 100)}`,
      );
    }
    req.operation = op.name;
    // Operations that take no payload ignore one, as their REST routes ignore a body.
    const payload = op.input ? withoutBodyId(sent ?? {}, session.id, 'the session of this page') : undefined;
    const idempotencyKey = single(req.headers['idempotency-key']);
    const response = await pipeline.execute(op, {
      tenant,
      transport: 'embedded',
      requestId: req.id,
      log: req.log,
      profileUrl: session.owner,
      id: session.id,
      payload,
      payloadBytes: payload === undefined ? '' : JSON.stringify(payload),
      ...(idempotencyKey !== undefined && { idempotencyKey }),
      address: req.ip,
      ...languageOf(req),
      admitted: { profile: tenant.profile.object, principal: ANONYMOUS },
    });
    reply.header('cache-control', 'no-store');
    return sendOperationResponse(reply, response);
  };
}

/**
 * The page's one way to read and change its session: `POST {page}/rpc` with
 * `{operation, payload}`. The operation must be one the page's kind allows, the session id comes
 * from the URL token alone, and the call runs the same operation definition through the same
 * pipeline as REST, MCP and A2A (transport `embedded`), so the answer is the REST answer, status
 * code included. The token admits the call for the session's owner with the business's own
 * profile (every capability of the tenant active); budgets count the client's address.
 * Once its checkout is completed or canceled, the page reads a confirmation only (id, status, and
 * the order of a completed one), and its token lives on for CONFIRMATION_MS after the page first
 * saw the session ended, not for the rest of the page lifetime: the buyer's email and address are
 * no longer on show, whoever ended the session (the page, or the agent over REST or MCP).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionKind } from '../settings.js';
import type { PageSession } from '../session/page-token.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { operationCall } from '../../pipeline/operation-call.js';
import type { OperationResponse, Pipeline } from '../../pipeline/pipeline.js';
import { bounded, ProtocolError } from '../../protocol/errors.js';
import { ANONYMOUS, ownerProfile } from '../../security/auth/principal.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { compile } from '../../../schemas/validator.js';
import { withoutBodyId } from '../../transports/body-id.js';
import { headerValue } from '../../transports/request-context.js';
import { sendOperationResponse } from '../../transports/operation-response.js';
import type { StateStore } from '../../state/store.js';

/** How long a page may still read its checkout once it ended: long enough to show the confirmation. */
export const CONFIRMATION_MS = 5 * 60_000;

/** The statuses after which a checkout keeps no page. */
const ENDED: ReadonlySet<unknown> = new Set(['completed', 'canceled']);

interface CheckoutBody {
  proto?: unknown;
  id?: unknown;
  status?: unknown;
  order?: { id?: unknown; permalink_url?: unknown };
}

/** An ended checkout as its page reads it: what the confirmation shows, no buyer data. */
function confirmationOnly(response: OperationResponse, body: CheckoutBody): OperationResponse {
  const order = body.order && { id: body.order.id, permalink_url: body.order.permalink_url };
  // A new object, not a spread: the response's encoded bytes (a kept answer's) must not outlive its body.
  const confirmation = JSON.stringify({ proto: body.proto, id: body.id, status: body.status, ...(order && { order }) });
  return { status: response.status, outcome: response.outcome, replayed: response.replayed, body: confirmation };
}

/** What a page may do with its own session: never create one, never touch another. */
const PAGE_OPERATIONS: Readonly<Record<SessionKind, readonly string[]>> = {
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

export function pageRpc(operations: readonly OperationDefinition[], pipeline: Pipeline, store: StateStore, now: () => number) {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const endedKey = (tenant: Tenant, id: string) => `embedded-ended:${tenant.id}:${id}`;

  return async function call(req: FastifyRequest, reply: FastifyReply, { tenant, kind, session }: PageCall): Promise<FastifyReply> {
    if (req.body === undefined) throw new ProtocolError('invalid_request', 'the request body must be a JSON object {operation, payload}');
    const checked = checkRequest(req.body);
    if (!checked.ok) throw new ProtocolError('invalid_request', checked.message);
    const { operation, payload: sent } = checked.value;
    const op = PAGE_OPERATIONS[kind].includes(operation) ? byName.get(operation) : undefined;
    if (!op) {
      throw new ProtocolError(
        'not_supported',
        `a ${kind} page may call ${PAGE_OPERATIONS[kind].join(', ')}; not ${bounded(operation, 100)}`,
      );
    }
    req.operation = op.name;
    const ended = kind === 'checkout' ? await store.get<{ at: number; status: string }>(endedKey(tenant, session.id)) : null;
    if (ended && now() - ended.value.at > CONFIRMATION_MS) {
      throw new ProtocolError('unauthorized', `the page token has expired: this checkout is ${ended.value.status}`);
    }
    // The URL token admits the session's owner; a business that requires a credential for the
    // capability also gets one, which the page asked its host for (ready's auth, ec.auth) and sends as EP-Auth.
    const profileUrl = ownerProfile(session.owner);
    const type = tenant.security.hostCredentialFor(op.capability);
    const principal = type
      ? await tenant.security.admitHostCredential({
          capability: op.capability,
          profileUrl,
          type,
          credential: headerValue(req, 'ep-auth'),
          now,
        })
      : ANONYMOUS;
    // Operations that take no payload ignore one, as their REST routes ignore a body.
    const payload = op.input ? withoutBodyId(sent ?? {}, session.id, 'the session of this page') : undefined;
    const response = await pipeline.execute(
      op,
      operationCall(req, tenant, {
        transport: 'embedded',
        requestId: req.id,
        profileUrl,
        id: session.id,
        payload,
        idempotencyKey: headerValue(req, 'idempotency-key'),
        admitted: { profile: tenant.profile.object, principal, owner: session.owner },
      }),
    );
    reply.header('cache-control', 'no-store');
    const body = kind === 'checkout' && response.status < 300 ? (JSON.parse(response.body) as CheckoutBody) : undefined;
    if (body && ENDED.has(body.status)) {
      await store.setIfAbsent(endedKey(tenant, session.id), { at: now(), status: body.status }, tenant.embedded!.pageTtlMs);
      // The complete answer itself is whole (the page hands it to the host); every other answer is the confirmation.
      if (op.name !== 'complete_checkout') return sendOperationResponse(reply, confirmationOnly(response, body));
    }
    return sendOperationResponse(reply, response);
  };
}

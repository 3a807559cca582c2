/**
 * The federated login's three steps in the browser: the login page's "Sign in with <store>" link
 * sends the buyer to the store's provider; the provider calls back at one fixed URL (the one
 * registered with it), which hands the answer on to the interaction's own path (only there does
 * the browser send the interaction cookie); there the identity is verified and bound to the grant.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProtocolError } from '../../protocol/errors.js';
import { OAUTH_PATH } from '../../identity/provider-configuration.js';
import { FederatedLoginError, type FederatedLogin } from '../../identity/federated-login.js';
import { asProtocolErrors, interactionPage, serverOf } from './interaction-page.js';
import { ERROR_PAGE_CSP, renderErrorPage } from '../../identity/error-page.js';
import fp from 'fastify-plugin';

type Interaction = FastifyRequest<{ Params: { uid: string } }>;

function federatedOf(req: FastifyRequest): FederatedLogin {
  const { tenant, server } = serverOf(req);
  if (!server.federated) throw new ProtocolError('not_found', `${tenant.name} has no federated login`);
  return server.federated;
}

const queryOf = (req: FastifyRequest) => new URL(req.raw.url ?? req.url, 'http://gateway').searchParams;
const interactionPath = (req: FastifyRequest, uid: string) =>
  `${new URL(serverOf(req).tenant.baseUrl).pathname.replace(/\/$/, '')}${OAUTH_PATH}/interaction/${encodeURIComponent(uid)}`;

async function addFederatedRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { uid: string } }>(`${OAUTH_PATH}/interaction/:uid/federated`, async (req: Interaction, reply: FastifyReply) => {
    req.operation = 'oauth_login';
    const federated = federatedOf(req);
    const { server } = serverOf(req);
    // Only the browser holding this interaction may start a sign-in for it.
    await asProtocolErrors(() => server.provider.interactionDetails(req.raw, reply.raw));
    let target: URL;
    try {
      target = await federated.start(req.params.uid);
    } catch (error) {
      req.log.warn({ err: error }, 'federated login: the provider cannot be reached');
      return interactionPage(req, reply, { status: 502, message: `${federated.label} cannot be reached right now. Try again later.` });
    }
    return reply.code(303).header('cache-control', 'no-store').redirect(target.href, 303);
  });

  app.get(`${OAUTH_PATH}/federated/callback`, async (req, reply) => {
    req.operation = 'oauth_login';
    const query = queryOf(req);
    const uid = await federatedOf(req).interactionOf(query.get('state') ?? '');
    // A buyer's browser lands here: an unknown or used-up attempt gets the plain error page, not JSON.
    if (uid === undefined)
      return reply
        .code(400)
        .headers({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': ERROR_PAGE_CSP, 'cache-control': 'no-store' })
        .send(renderErrorPage('invalid_request', 'This sign-in attempt is unknown, was already used or has expired.'));
    return reply.header('cache-control', 'no-store').redirect(`${interactionPath(req, uid)}/federated/return?${query.toString()}`, 303);
  });

  app.get<{ Params: { uid: string } }>(`${OAUTH_PATH}/interaction/:uid/federated/return`, async (req: Interaction, reply) => {
    req.operation = 'oauth_login';
    const federated = federatedOf(req);
    const { server } = serverOf(req);
    await asProtocolErrors(() => server.provider.interactionDetails(req.raw, reply.raw));
    try {
      const identity = await federated.finish(req.params.uid, queryOf(req));
      req.log.info({ provider: federated.label }, 'federated login: identity verified');
      await asProtocolErrors(() => server.finishLogin(req.raw, reply.raw, identity));
      return reply.hijack();
    } catch (error) {
      if (!(error instanceof FederatedLoginError)) throw error;
      req.log.warn({ reason: error.message, cause: (error.cause as Error | undefined)?.message }, 'federated login refused');
      return interactionPage(req, reply, { status: 401, message: error.message });
    }
  });
}

export const federatedRoutes = fp(addFederatedRoutes, {
  name: 'federated-routes',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant', 'operation'] },
});

/**
 * The authorization servers inside Fastify (no second HTTP server): /oauth2/* and the discovery
 * documents are handed to the routed tenant's oidc-provider as raw requests; the login and consent
 * page (/oauth2/interaction/:uid) is the gateway's own. A tenant without identity linking answers
 * 404 on all of them. Encapsulated: bodies here are left unread for oidc-provider to parse.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProtocolError } from '../../protocol/errors.js';
import { LOGOUT_PAGE_HEADERS, renderNotSignedIn } from '../../identity/logout-pages.js';
import { OAUTH_PATH } from '../../identity/provider-configuration.js';
import { federatedRoutes } from './federated-routes.js';
import { asProtocolErrors, interactionPage, serverOf } from './interaction-page.js';
import fp from 'fastify-plugin';

const MAX_FORM_BYTES = 8 * 1024;

async function readForm(raw: IncomingMessage): Promise<URLSearchParams> {
  const type = raw.headers['content-type'] ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) throw new ProtocolError('unsupported_media_type', 'send the form');
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new ProtocolError('payload_too_large', 'the form is too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The part of the URL after the tenant's routing (its path prefix already removed), query kept. */
const routedPath = (req: FastifyRequest) => req.raw.url ?? req.url;

function handOver(req: FastifyRequest, reply: FastifyReply, path = routedPath(req)): void {
  const { server } = serverOf(req);
  req.operation = 'oauth';
  reply.hijack();
  server.handle(req.raw, reply.raw, path);
}

async function addOauthRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  // RFC 8414 metadata: the provider's own discovery document (oidc-provider's metadata is RFC 8414's).
  app.get('/.well-known/oauth-authorization-server', (req, reply) => handOver(req, reply, '/.well-known/openid-configuration'));
  app.get('/.well-known/openid-configuration', (req, reply) => handOver(req, reply));

  // RFC 9728: which authorization server protects this tenant's endpoint, and its scopes.
  app.get('/.well-known/oauth-protected-resource', async (req, reply) => {
    const { tenant, server } = serverOf(req);
    req.operation = 'oauth';
    return reply.header('cache-control', 'public, max-age=300').send({
      resource: server.resource,
      authorization_servers: [server.issuer],
      scopes_supported: server.scopes,
      bearer_methods_supported: ['header'],
      resource_name: tenant.name,
    });
  });

  app.get<{ Params: { uid: string } }>(`${OAUTH_PATH}/interaction/:uid`, (req, reply) => {
    req.operation = 'oauth_login';
    return interactionPage(req, reply);
  });

  app.post<{ Params: { uid: string } }>(`${OAUTH_PATH}/interaction/:uid`, async (req, reply) => {
    req.operation = 'oauth_login';
    const { tenant, server } = serverOf(req);
    const form = await readForm(req.raw);
    // The interaction must still be there (and be this browser's) before anything is tried.
    await asProtocolErrors(() => server.provider.interactionDetails(req.raw, reply.raw));
    if (form.get('action') === 'deny') {
      await asProtocolErrors(() => server.deny(req.raw, reply.raw));
      return reply.hijack();
    }
    const login = tenant.adapter.authenticateCustomer?.bind(tenant.adapter);
    if (!login)
      return interactionPage(req, reply, { status: 400, message: `${tenant.name} signs you in with ${server.federated?.label}.` });
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    if (email === '' || password === '')
      return interactionPage(req, reply, { status: 400, message: 'Enter your email and password.', email });
    // The attempt is counted before the password is checked, so parallel guesses meet the limit too.
    if (!(await server.attempts.reserve(email, req.ip))) {
      req.log.warn({ tenant: tenant.id }, 'login refused: too many failed attempts');
      return interactionPage(req, reply, { status: 429, message: 'Too many failed attempts. Wait a few minutes, then try again.', email });
    }
    let customer;
    try {
      customer = await login({ email, password });
    } catch (error) {
      await server.attempts.abandoned(email, req.ip);
      throw error;
    }
    // A wrong password keeps its reservation: that is the failure counted.
    if (!customer)
      return interactionPage(req, reply, { status: 401, message: 'That email and password do not match an account of this store.', email });
    await server.attempts.succeeded(email, req.ip);
    await asProtocolErrors(() => server.finishLogin(req.raw, reply.raw, customer));
    return reply.hijack();
  });

  // oidc-provider answers a browser with no one signed in with a form that submits itself: not here.
  app.route({
    method: ['GET', 'POST'],
    url: `${OAUTH_PATH}/logout`,
    handler: async (req, reply) => {
      const { tenant, server } = serverOf(req);
      const session = await server.provider.Session.get(server.provider.createContext(req.raw, reply.raw));
      if (session.accountId !== undefined) return handOver(req, reply);
      req.operation = 'oauth';
      return reply.code(200).headers(LOGOUT_PAGE_HEADERS).type('text/html; charset=utf-8').send(renderNotSignedIn(tenant.name));
    },
  });

  await app.register(federatedRoutes);
  app.all(`${OAUTH_PATH}/*`, (req, reply) => handOver(req, reply));
}

export const oauthRoutes = fp(addOauthRoutes, {
  name: 'oauth-routes',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant', 'operation'] },
});

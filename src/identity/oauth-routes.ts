/**
 * The authorization servers inside Fastify (no second HTTP server): /oauth2/* and the discovery
 * documents are handed to the routed tenant's oidc-provider as raw requests; the login and consent
 * page (/oauth2/interaction/:uid) is the gateway's own. A tenant without identity linking answers
 * 404 on all of them. Encapsulated: bodies here are left unread for oidc-provider to parse.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from 'oidc-provider';
import { ProtocolError } from '../protocol/errors.js';
import { tenantOf } from '../transports/request-context.js';
import type { Tenant } from '../tenancy/tenant.js';
import { OAUTH_PATH, type AuthorizationServer } from './authorization-server.js';
import { loginPageCsp, renderLoginPage } from './login-page.js';

const MAX_FORM_BYTES = 8 * 1024;

function serverOf(req: FastifyRequest): { tenant: Tenant; server: AuthorizationServer } {
  const tenant = tenantOf(req);
  if (!tenant.identity) throw new ProtocolError(404, 'not_found', `${tenant.name} does not link buyer accounts`);
  return { tenant, server: tenant.identity };
}

async function readForm(raw: IncomingMessage): Promise<URLSearchParams> {
  const type = raw.headers['content-type'] ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) throw new ProtocolError(415, 'unsupported_media_type', 'send the form');
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new ProtocolError(413, 'payload_too_large', 'the form is too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** oidc-provider's refusals (an expired interaction, a missing cookie) as the protocol errors they are. */
async function asProtocolErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof errors.OIDCProviderError)
      throw new ProtocolError(error.statusCode, error.error, error.error_description ?? error.message);
    throw error;
  }
}

function originOf(uri: unknown): string | undefined {
  try {
    return typeof uri === 'string' ? new URL(uri).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The part of the URL after the tenant's routing (its path prefix already removed), query kept. */
const routedPath = (req: FastifyRequest) => req.raw.url ?? req.url;

function handOver(req: FastifyRequest, reply: FastifyReply, path = routedPath(req)): void {
  const { server } = serverOf(req);
  req.operation = 'oauth';
  reply.hijack();
  server.handle(req.raw, reply.raw, path);
}

export async function oauthRoutes(app: FastifyInstance): Promise<void> {
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

  const interactionPage = async (
    req: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
    error?: { status: number; message: string; email?: string },
  ) => {
    const { tenant, server } = serverOf(req);
    const details = await asProtocolErrors(() => server.provider.interactionDetails(req.raw, reply.raw));
    const clientId = String(details.params.client_id);
    const client = await server.provider.Client.find(clientId);
    const redirect = originOf(details.params.redirect_uri);
    const html = renderLoginPage({
      storeName: tenant.name,
      platform: client?.clientName ?? clientId,
      scopes: (typeof details.params.scope === 'string' ? details.params.scope.split(' ') : []).filter((s) => server.scopes.includes(s)),
      action: `${new URL(tenant.baseUrl).pathname.replace(/\/$/, '')}${OAUTH_PATH}/interaction/${encodeURIComponent(req.params.uid)}`,
      ...(error && { error: error.message }),
      ...(error?.email !== undefined && { email: error.email }),
    });
    return reply
      .code(error?.status ?? 200)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': loginPageCsp(redirect),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      })
      .send(html);
  };

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
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    if (email === '' || password === '')
      return interactionPage(req, reply, { status: 400, message: 'Enter your email and password.', email });
    if (await server.attempts.blocked(email, req.ip)) {
      req.log.warn({ tenant: tenant.id }, 'login refused: too many failed attempts');
      return interactionPage(req, reply, { status: 429, message: 'Too many failed attempts. Wait a few minutes, then try again.', email });
    }
    const customer = await tenant.adapter.authenticateCustomer!({ email, password });
    if (!customer) {
      await server.attempts.failed(email, req.ip);
      return interactionPage(req, reply, { status: 401, message: 'That email and password do not match an account of this store.', email });
    }
    await server.attempts.succeeded(email, req.ip);
    await asProtocolErrors(() => server.finishLogin(req.raw, reply.raw, customer));
    return reply.hijack();
  });

  app.all(`${OAUTH_PATH}/*`, (req, reply) => handOver(req, reply));
}

/**
 * The login and consent page of an interaction, shared by the password login and the federated
 * one: which tenant's authorization server the request is for, the page rendered with its CSP,
 * and oidc-provider's refusals turned into the protocol errors they are.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from 'oidc-provider';
import { ProtocolError } from '../../protocol/errors.js';
import { tenantOf } from '../request-context.js';
import type { Tenant } from '../../tenancy/tenant.js';
import type { AuthorizationServer } from '../../identity/authorization-server.js';
import { OAUTH_PATH } from '../../identity/provider-configuration.js';
import { loginPageCsp, renderLoginPage } from './login-page.js';

export function serverOf(req: FastifyRequest): { tenant: Tenant; server: AuthorizationServer } {
  const tenant = tenantOf(req);
  if (!tenant.identity) throw new ProtocolError('not_found', `${tenant.name} does not link buyer accounts`);
  return { tenant, server: tenant.identity };
}

/** oidc-provider's refusals (an expired interaction, a missing cookie) as the protocol errors they are. */
export async function asProtocolErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof errors.OIDCProviderError)
      throw ProtocolError.oauth(error.statusCode, error.error, error.error_description ?? error.message);
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

/** The login and consent page of interaction `uid`, with an error above the form when a try failed. */
export async function interactionPage(
  req: FastifyRequest<{ Params: { uid: string } }>,
  reply: FastifyReply,
  error?: { status: number; message: string; email?: string },
): Promise<FastifyReply> {
  const { tenant, server } = serverOf(req);
  const details = await asProtocolErrors(() => server.provider.interactionDetails(req.raw, reply.raw));
  const clientId = String(details.params.client_id);
  const client = await server.provider.Client.find(clientId);
  const redirect = originOf(details.params.redirect_uri);
  const action = `${new URL(tenant.baseUrl).pathname.replace(/\/$/, '')}${OAUTH_PATH}/interaction/${encodeURIComponent(req.params.uid)}`;
  const html = renderLoginPage({
    storeName: tenant.name,
    platform: client?.clientName ?? clientId,
    scopes: (typeof details.params.scope === 'string' ? details.params.scope.split(' ') : []).filter((s) => server.scopes.includes(s)),
    action,
    password: tenant.adapter.authenticateCustomer !== undefined,
    ...(server.federated && { federated: { label: server.federated.label, href: `${action}/federated` } }),
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
}

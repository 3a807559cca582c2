/**
 * GET /openapi.json (the tenant's REST description, openapi-document.ts) and /docs, a page to read
 * and try it (@fastify/swagger-ui, fed the same document per tenant). A Fastify plugin.
 * Every answer under /docs carries the headers the buyer's login page does: a CSP that loads
 * everything from the page's own origin (swagger-ui ships its files and runs no inline script),
 * lets "Try it out" call the tenant's base URL and forbids framing; nosniff; no referrer.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { openApiPath } from '../../protocol/business-profile.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { tenantOf } from '../request-context.js';
import { openApiDocument } from './openapi-document.js';
import fp from 'fastify-plugin';

const DOCS_PATH = '/docs';

/** `api`: the origin "Try it out" calls, the document's server (the tenant's base URL). */
function docsCsp(api: string | undefined): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${api ? ` ${api}` : ''}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

async function addOpenApiRoutes(app: FastifyInstance, { operations }: { operations: readonly OperationDefinition[] }): Promise<void> {
  const documents = new WeakMap<Tenant, Record<string, unknown>>();
  const documentOf = (tenant: Tenant) => {
    let document = documents.get(tenant);
    if (!document) documents.set(tenant, (document = openApiDocument(tenant, operations)));
    return document;
  };

  app.get(openApiPath, async (req, reply) => {
    req.operation = 'openapi';
    return reply
      .header('cache-control', 'public, max-age=300')
      .header('vary', 'host')
      .send(documentOf(tenantOf(req)));
  });

  // Before swagger-ui is registered, so the hook reaches its routes too.
  app.addHook('onSend', async (req, reply) => {
    if (!req.routeOptions.url?.startsWith(DOCS_PATH)) return;
    reply.headers({
      'content-security-policy': docsCsp(req.tenant ? new URL(req.tenant.baseUrl).origin : undefined),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });

  // swagger-ui reads the document from @fastify/swagger; each request gets its own tenant's.
  await app.register(swagger, {
    mode: 'static',
    specification: { document: { openapi: '3.1.0', info: { title: 'gateway', version: PROTOCOL_VERSION }, paths: {} } },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    transformSpecification: (_document, req) => documentOf(tenantOf(req)),
    // BaseLayout: no top bar, whose logo carries an inline style and whose box loads any other document.
    uiConfig: { tryItOutEnabled: true, displayOperationId: true, layout: 'BaseLayout' },
  });
}

export const openApiRoutes = fp(addOpenApiRoutes, {
  name: 'openapi-routes',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant', 'operation'] },
});

/**
 * GET /openapi.json (the tenant's REST description, openapi-document.ts) and /docs, a page to read
 * and try it (@fastify/swagger-ui, fed the same document per tenant). A Fastify plugin.
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

export const DOCS_PATH = '/docs';

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

  // swagger-ui reads the document from @fastify/swagger; each request gets its own tenant's.
  await app.register(swagger, {
    mode: 'static',
    specification: { document: { openapi: '3.1.0', info: { title: 'gateway', version: PROTOCOL_VERSION }, paths: {} } },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    transformSpecification: (_document, req) => documentOf(tenantOf(req)),
    uiConfig: { tryItOutEnabled: true, displayOperationId: true },
  });
}

export const openApiRoutes = fp(addOpenApiRoutes, {
  name: 'openapi-routes',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant', 'operation'] },
});

/** GET /.well-known/proto: the tenant's business profile, rendered once, cacheable. A Fastify plugin. */
import type { FastifyInstance } from 'fastify';
import { profilePath } from '../protocol/business-profile.js';
import { tenantOf } from './request-context.js';
import fp from 'fastify-plugin';

async function addDiscoveryTransport(app: FastifyInstance): Promise<void> {
  app.get(profilePath, async (req, reply) => {
    req.operation = 'discovery';
    const { profile } = tenantOf(req);
    reply.header('cache-control', 'public, max-age=300').header('etag', profile.etag).header('vary', 'host');
    if (req.headers['if-none-match'] === profile.etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(profile.json);
  });
}

export const discoveryTransport = fp(addDiscoveryTransport, {
  name: 'discovery',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant', 'operation'] },
});

/**
 * The demo store's web pages, for the links its answers carry: the storefront, its policies,
 * product, checkout, payment confirmation and tracking pages (one stand-in page per kind) and its catalog images, all
 * small files in the demo data folder (config/demo/storefront). Served only for a tenant whose
 * adapter has such a site at `/demo-store` on the tenant's own address; elsewhere a plain 404.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tenantOf } from '../request-context.js';
import fp from 'fastify-plugin';

const PREFIX = '/demo-store';

/** The file answering a path below the prefix, or undefined. Fixed patterns: nothing outside the folder. */
function fileFor(rest: string): string | undefined {
  if (rest === '' || rest === '/') return 'index.html';
  if (rest === '/policies/terms' || rest === '/policies/privacy') return `${rest.slice(1)}.html`;
  if (/^\/products\/[^/]+$/.test(rest)) return 'product.html';
  if (/^\/tracking\/[^/]+$/.test(rest)) return 'tracking.html';
  if (/^\/cart\/.+$/.test(rest)) return 'cart.html';
  if (/^\/pay\/[^/]+$/.test(rest)) return 'pay.html';
  if (/^\/sellers\/[a-z0-9-]+$/.test(rest)) return `${rest.slice(1)}.html`;
  const image = /^\/images\/([a-z0-9-]+)\.svg$/.exec(rest);
  return image ? `images/${image[1]}.svg` : undefined;
}

function siteFolder(req: FastifyRequest): string | undefined {
  const tenant = tenantOf(req);
  const site = tenant.storefront;
  return site && site.url === `${tenant.baseUrl.replace(/\/+$/, '')}${PREFIX}` ? site.dir : undefined;
}

/** A Fastify plugin. */
async function addDemoStorePages(app: FastifyInstance): Promise<void> {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    req.operation = 'demo_store_page';
    const folder = siteFolder(req);
    const file = fileFor(req.url.split('?')[0]!.slice(PREFIX.length));
    const body = folder && file && (await readFile(join(folder, file)).catch(() => undefined));
    if (!body) return reply.callNotFound();
    const svg = file.endsWith('.svg');
    return reply
      .headers({
        'content-type': svg ? 'image/svg+xml' : 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=3600',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      })
      .send(body);
  };
  app.get(PREFIX, handler);
  app.get(`${PREFIX}/*`, handler);
}

export const demoStorePages = fp(addDemoStorePages, {
  name: 'demo-store-pages',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors'],
  decorators: { request: ['tenant', 'operation'] },
});

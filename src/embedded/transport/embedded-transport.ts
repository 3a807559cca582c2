/**
 * The embedded transport (spec part 2 §6.2, §9) as one encapsulated plugin under /embedded, for
 * tenants that turn it on (for the others every path here is a 404, as before):
 *   GET  /embedded/{kind}/{token}       the page shell (page-shell.ts)
 *   POST /embedded/{kind}/{token}/rpc   the page's operation calls (page-rpc.ts)
 *   GET  /embedded/assets/{file}        the page's script and styles (assets.ts)
 * The token (embedded/session/page-token.ts) names the session; it is checked on every request.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { SessionKind } from '../settings.js';
import type { GatewaySecret } from '../../config/gateway-secret.js';
import { readPageToken, type PageSession } from '../session/page-token.js';
import { EMBEDDED_PATH } from '../session/session-binding.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { COUNTED_PER_CALL } from '../../transports/rate-limiter.js';
import { defaultAssetsDir, readAsset } from './assets.js';
import { pageRpc } from './page-rpc.js';
import type { StateStore } from '../../state/store.js';
import { errorPage, pageConfig, renderShell, sendPage } from './page-shell.js';
import fp from 'fastify-plugin';

export interface EmbeddedTransportOptions {
  operations: readonly OperationDefinition[];
  pipeline: Pipeline;
  secret: GatewaySecret;
  now: () => number;
  /** Where a page's checkout was first seen completed (its token's shortened life). */
  store: StateStore;
  /** Where the built page files are; dist/embedded/page of this repository by default. */
  assetsDir?: string;
}

const KIND_CAPABILITY = { cart: CAPABILITY.cart, checkout: CAPABILITY.checkout } as const;

const isKind = (kind: string): kind is SessionKind => kind === 'cart' || kind === 'checkout';

type Resolved =
  { ok: true; tenant: Tenant; kind: SessionKind; session: PageSession } | { ok: false; reason: 'off' | 'invalid' | 'expired' };

/** The tenant with the transport on, when the request routed to one. */
const embeddedTenant = (req: FastifyRequest): Tenant | undefined => (req.tenant?.embedded ? req.tenant : undefined);

const addEmbeddedTransport: FastifyPluginAsync<EmbeddedTransportOptions> = async (app, options) => {
  const { secret, now } = options;
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  const rpc = pageRpc(options.operations, options.pipeline, options.store, now);
  const base = (tenant: Tenant) => `${tenant.baseUrl}${EMBEDDED_PATH}`;

  function resolve(req: FastifyRequest): Resolved {
    const tenant = embeddedTenant(req);
    const { kind, token } = req.params as { kind: string; token: string };
    if (!tenant || !isKind(kind) || !tenant.capabilities.has(KIND_CAPABILITY[kind])) return { ok: false, reason: 'off' };
    const check = readPageToken(secret, tenant.id, kind, token, now());
    return check.ok ? { ok: true, tenant, kind, session: check.session } : check;
  }

  app.addHook('onRequest', (req, _reply, done) => {
    req.transport = 'embedded';
    done();
  });

  app.get('/:kind/:token', async (req, reply) => {
    req.operation = 'embedded_page';
    const page = resolve(req);
    const origins = embeddedTenant(req)?.embedded?.hostOrigins;
    if (!page.ok) {
      const status = page.reason === 'expired' ? 410 : 404;
      return sendPage(reply, status, errorPage(status), origins);
    }
    const { tenant, kind } = page;
    const { token } = req.params as { token: string };
    const config = pageConfig(tenant, kind, `${base(tenant)}/${kind}/${token}/rpc`);
    return sendPage(reply, 200, renderShell(tenant, `${base(tenant)}/assets`, config), origins);
  });

  app.post('/:kind/:token/rpc', { config: COUNTED_PER_CALL }, async (req, reply) => {
    const page = resolve(req);
    if (!page.ok && page.reason === 'off') throw new ProtocolError('not_found', 'no embedded page is served here');
    if (!page.ok) {
      const why = page.reason === 'expired' ? 'has expired: ask the host for a fresh continue_url' : 'is not valid for this page';
      throw new ProtocolError('unauthorized', `the page token ${why}`);
    }
    return rpc(req, reply, page);
  });

  app.get('/assets/:file', async (req, reply) => {
    req.operation = 'embedded_asset';
    const asset = embeddedTenant(req) && (await readAsset(assetsDir, (req.params as { file: string }).file));
    if (!asset) throw new ProtocolError('not_found', 'no such page asset');
    return reply.type(asset.type).headers({ 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' }).send(asset.body);
  });
};

export const embeddedTransport = fp(addEmbeddedTransport, {
  name: 'embedded-transport',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rest-errors', 'rate-limits'],
  decorators: { request: ['tenant', 'operation', 'transport'] },
});

/**
 * Backend webhooks in: `POST /webhooks/backend` on the tenant's address. The tenant's adapter
 * verifies the delivery with the store's own scheme (Shopify and WooCommerce HMAC over the raw
 * body). A verified ping (a store testing its webhook) is acknowledged; a verified order event is
 * processed once per backend event id (reconcile.ts): the order is read afresh from the store and
 * the platform that placed it, or that handed its checkout to the store, gets its order webhook.
 * Orders the gateway has nothing to do with are acknowledged and ignored.
 */
import type { FastifyInstance } from 'fastify';
import type { BackendEvent } from '../../adapters/contract.js';
import type { GatewaySecret } from '../config/gateway-secret.js';
import { ProtocolError } from '../protocol/errors.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';
import { tenantOf } from '../transports/request-context.js';
import { reconcileOnce } from './reconcile.js';
import fp from 'fastify-plugin';

const BACKEND_WEBHOOK_PATH = '/webhooks/backend';

export interface InboundDeps {
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
}

function verify(
  tenant: Tenant,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  log: FastifyInstance['log'],
): BackendEvent | null {
  try {
    return tenant.adapter.verifyWebhook(headers, body);
  } catch (error) {
    // Whatever the request holds, an adapter that cannot read it has not verified it.
    log.warn({ tenant: tenant.id, err: error }, 'backend webhook: the adapter failed to verify a delivery');
    return null;
  }
}

/** A Fastify plugin: its own scope takes every body as bytes. */
async function addBackendWebhooks(scope: FastifyInstance, deps: InboundDeps): Promise<void> {
  // Stores sign the exact bytes they send, JSON or not (WooCommerce's first delivery is a form post).
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    req.rawBody = body as Buffer;
    done(null, undefined);
  });
  scope.post(BACKEND_WEBHOOK_PATH, async (req, reply) => {
    req.operation = 'backend_webhook';
    const tenant = tenantOf(req);
    const event = verify(tenant, req.headers, req.rawBody ?? Buffer.alloc(0), req.log);
    if (!event) scope.metrics.webhookRefused(tenant.id);
    if (!event) throw new ProtocolError('webhook_unverified', "the webhook does not verify with this store's webhook secret");
    if (event.kind === 'ping') {
      req.log.info({ tenant: tenant.id, event: event.eventId }, 'backend webhook: ping');
      return reply.send({ status: 'ping' });
    }
    const { eventId, orderId, reference, storeReference } = event;
    const change = {
      eventId,
      orderId,
      ...(reference !== undefined && { reference }),
      ...(storeReference !== undefined && { storeReference }),
    };
    const outcome = await reconcileOnce(deps, tenant, change);
    req.log.info({ tenant: tenant.id, order: orderId, topic: event.topic, outcome }, 'backend webhook');
    return reply.send({ status: outcome });
  });
}

/** Its own parser fills the json-body plugin's `rawBody` decorator. */
export const backendWebhooks = fp(addBackendWebhooks, {
  name: 'backend-webhooks',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rest-errors', 'rate-limits'],
  decorators: { request: ['tenant', 'operation', 'rawBody'] },
});

/**
 * Backend webhooks in: `POST /webhooks/backend` on the tenant's address. The tenant's adapter
 * verifies the delivery with the store's own scheme (Shopify and WooCommerce HMAC over the raw
 * body); a verified event is processed once per backend event id (stores redeliver), the order
 * is read afresh from the store, and an order-updated webhook is queued for the platform that
 * placed it. Orders the gateway did not place have no platform to tell and are acknowledged.
 */
import type { FastifyInstance } from 'fastify';
import type { BackendEvent } from '../../adapters/contract.js';
import { loadOrderRecord } from '../capabilities/order/order-record.js';
import { ProtocolError } from '../protocol/errors.js';
import type { StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';
import { tenantOf } from '../transports/request-context.js';
import { backendEventId } from './order-event.js';
import { enqueueOrderEvent } from './outbox.js';

const BACKEND_WEBHOOK_PATH = '/webhooks/backend';

/** Longer than the stores retry (Shopify: 48 hours), so a redelivery is always recognized. */
const BACKEND_EVENT_DEDUPE_MS = 7 * 86_400_000;

export interface InboundDeps {
  store: StateStore;
  now: () => number;
}

type Outcome = 'queued' | 'ignored' | 'duplicate' | 'ping';

type OrderEventIn = Extract<BackendEvent, { kind: 'order' }>;

function verify(tenant: Tenant, headers: Record<string, string | string[] | undefined>, body: Buffer, log: FastifyInstance['log']): BackendEvent | null {
  try {
    return tenant.adapter.verifyWebhook(headers, body);
  } catch (error) {
    // Whatever the request holds, an adapter that cannot read it has not verified it.
    log.warn({ tenant: tenant.id, err: error }, 'backend webhook: the adapter failed to verify a delivery');
    return null;
  }
}

async function announce(deps: InboundDeps, tenant: Tenant, event: OrderEventIn): Promise<Outcome> {
  const record = await loadOrderRecord({ store: deps.store, tenant }, event.orderId);
  if (!record?.webhookUrl) return 'ignored';
  const order = await tenant.adapter.getOrder(event.orderId);
  if (!order) return 'ignored';
  const facts = { id: backendEventId(tenant.id, event.eventId), kind: 'order_updated' as const, occurredAt: deps.now() };
  return (await enqueueOrderEvent(deps.store, tenant, record, order, facts)) ? 'queued' : 'ignored';
}

export function registerBackendWebhooks(app: FastifyInstance, deps: InboundDeps): void {
  // Stores sign the exact bytes they send, JSON or not (WooCommerce's first delivery is a form post).
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
      req.rawBody = body as Buffer;
      done(null, undefined);
    });
    scope.post(BACKEND_WEBHOOK_PATH, async (req, reply) => {
      req.operation = 'backend_webhook';
      const tenant = tenantOf(req);
      const event = verify(tenant, req.headers, req.rawBody ?? Buffer.alloc(0), req.log);
      if (!event) throw new ProtocolError(401, 'webhook_unverified', 'the webhook does not verify with this store\'s webhook secret');
      if (event.kind === 'ping') return reply.send({ status: 'ping' satisfies Outcome });
      const seen = `backend-event:${tenant.id}:${event.eventId}`;
      if (!(await deps.store.setIfAbsent(seen, { orderId: event.orderId, topic: event.topic }, BACKEND_EVENT_DEDUPE_MS))) {
        return reply.send({ status: 'duplicate' satisfies Outcome });
      }
      let outcome: Outcome;
      try {
        outcome = await announce(deps, tenant, event);
      } catch (error) {
        // Not processed: forget the id, so the store's redelivery is processed.
        await deps.store.delete(seen).catch(() => undefined);
        throw error;
      }
      req.log.info({ tenant: tenant.id, order: event.orderId, topic: event.topic, outcome }, 'backend webhook');
      return reply.send({ status: outcome });
    });
  });
}

/**
 * The order webhook outbox: a durable queue in the state store (spec part 2 §6.1 "MUST retry
 * failed deliveries"), one per tenant, so a gateway claims only the events of tenants it serves
 * (another deployment on the same Redis never takes them). Events of one order share a group, so
 * they are delivered one at a time in the order they were enqueued; orders are independent. The
 * fingerprint of the latest snapshot queued per order is kept, so a poll that finds nothing new
 * announces nothing.
 */
import type { OrderSnapshot } from '../../../adapters/contract.js';
import { profilePath } from '../../protocol/business-profile.js';
import { fingerprint } from '../../security/fingerprint.js';
import type { DurableQueue, StateStore } from '../../state/store.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { withCheckoutLineIds, type CheckoutLineRef } from './checkout-lines.js';
import type { OrderEvent, OrderEventKind } from './order-event.js';

export const ORDER_WEBHOOK_QUEUE = 'order-webhooks';

export const orderWebhookQueue = (store: StateStore, tenantId: string): DurableQueue<OrderEvent> =>
  store.queue<OrderEvent>(`${ORDER_WEBHOOK_QUEUE}:${tenantId}`);

export interface EventFacts {
  id: string;
  kind: OrderEventKind;
  /** Epoch ms. */
  occurredAt: number;
}

/** Who an order's events go to: what the order's record (order-record.ts) says about the platform that placed it. */
export interface EventRecipient {
  /** The platform's `config.webhook_url`; none, no events. */
  webhookUrl?: string;
  checkoutId: string;
  /** The checkout's lines: the event shows their ids on a store's order that keeps only its own. */
  lines?: CheckoutLineRef[];
}

/**
 * Queues an event of `order` for the platform that placed it. Returns false (nothing queued)
 * when that platform's profile gave no webhook URL. Enqueueing an id already queued does nothing.
 */
export async function enqueueOrderEvent(
  store: StateStore,
  tenant: Pick<Tenant, 'id' | 'baseUrl'>,
  record: EventRecipient,
  order: OrderSnapshot,
  facts: EventFacts,
): Promise<boolean> {
  if (!record.webhookUrl) return false;
  const event: OrderEvent = {
    ...facts,
    tenantId: tenant.id,
    webhookUrl: record.webhookUrl,
    businessProfile: `${tenant.baseUrl}${profilePath}`,
    checkoutId: record.checkoutId,
    order: withCheckoutLineIds(order, record.lines),
  };
  await orderWebhookQueue(store, tenant.id).enqueue({ id: facts.id, group: `${tenant.id}:${order.id}`, payload: event });
  await store.set(announcedKey(tenant.id, order.id), snapshotFingerprint(order), ANNOUNCED_TTL_MS);
  return true;
}

/** As long as an order record lives. */
const ANNOUNCED_TTL_MS = 400 * 86_400_000;

const announcedKey = (tenantId: string, orderId: string) => `order-announced:${tenantId}:${orderId}`;

export const snapshotFingerprint = (order: OrderSnapshot) => fingerprint([JSON.stringify(order)]);

/** True when the platform was last sent exactly this snapshot of the order. */
export async function alreadyAnnounced(store: StateStore, tenantId: string, order: OrderSnapshot): Promise<boolean> {
  return (await store.get<string>(announcedKey(tenantId, order.id)))?.value === snapshotFingerprint(order);
}

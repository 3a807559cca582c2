/**
 * What an order change reported by the store means for the gateway, whether it came as a verified
 * backend webhook (inbound.ts) or from polling a store without webhooks (order-poll.ts):
 *
 * - an order the gateway placed (it has the order record): the platform that placed it gets an
 *   `order updated` webhook with the order as the store has it now, when that differs from the
 *   snapshot it was last sent (spec part 2 §1: webhooks "when the order changes"). One change on
 *   the store is often several events (a Shopify or Medusa shipment: 2-3), and a poll sees
 *   changes twice; the last snapshot sent is kept in the state store, so every replica compares
 *   with the same one;
 * - an order the gateway has no record of, carrying the reference of a checkout it handed off to
 *   the store's checkout page, or whose payment the buyer was asked to confirm there (or, for a
 *   store that keeps no reference, the store-side reference named then: its cart, its payment),
 *   once paid (`awaitingPayment` unset): the order record is created for the platform that was
 *   handed off (its `order created` webhook queued), and the checkout is completed with the order;
 * - anything else (orders placed on the store by other means) is acknowledged and ignored.
 */
import type { Tenant } from '../tenancy/tenant.js';
import type { GatewaySecret } from '../config/gateway-secret.js';
import type { StateStore } from '../state/store.js';
import { loadOrderRecord, recordOrder } from '../capabilities/order/order-record.js';
import { completeHandedOff } from '../capabilities/checkout/completion/handed-off-order.js';
import { findHandoff } from '../capabilities/checkout/handoff-record.js';
import { backendEventId } from '../capabilities/order/order-event.js';
import { alreadyAnnounced, enqueueOrderEvent, snapshotFingerprint } from '../capabilities/order/outbox.js';

export type ReconcileOutcome = 'created' | 'queued' | 'ignored' | 'unchanged' | 'duplicate';

/** Longer than the stores retry (Shopify: 48 hours), so a redelivery is always recognized. */
const EVENT_DEDUPE_MS = 7 * 86_400_000;

export interface ReconcileDeps {
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
}

export interface OrderChangeReport {
  /** The store's delivery id (or, for a poll, the order and its change time): one event per id. */
  eventId: string;
  orderId: string;
  reference?: string;
  /** The store-side object the order came from, when the event or change names it. */
  storeReference?: string;
  /** A poll has no delivery ids: its event ids name the snapshot. */
  polled?: boolean;
}

export async function reconcileOrder(deps: ReconcileDeps, tenant: Tenant, change: OrderChangeReport): Promise<ReconcileOutcome> {
  const ctx = { store: deps.store, tenant, now: deps.now, secret: deps.secret };
  const record = await loadOrderRecord(ctx, change.orderId);
  if (record && !record.webhookUrl) return 'ignored';
  const order = await tenant.adapter.getOrder(change.orderId);
  if (!order) return 'ignored';
  if (record) {
    if (await alreadyAnnounced(deps.store, tenant.id, order)) return 'unchanged';
    const eventId = change.polled ? `${change.eventId}:${snapshotFingerprint(order)}` : change.eventId;
    const facts = { id: backendEventId(tenant.id, eventId), kind: 'order_updated' as const, occurredAt: deps.now() };
    return (await enqueueOrderEvent(deps.store, tenant, record, order, facts)) ? 'queued' : 'ignored';
  }
  const links = { reference: change.reference ?? order.reference, storeReference: change.storeReference ?? order.storeReference };
  const handoff = await findHandoff(ctx, links);
  if (!handoff || order.awaitingPayment) return 'ignored';
  await recordOrder(
    ctx,
    { checkoutId: handoff.checkoutId, ...(handoff.lines && { lines: handoff.lines }) },
    order.id,
    handoff.recipient,
    order,
  );
  await completeHandedOff(ctx, handoff.checkoutId, order);
  return 'created';
}

/** Processes each store event once (stores redeliver, polls overlap); a failure forgets it, so the redelivery is processed. */
export async function reconcileOnce(deps: ReconcileDeps, tenant: Tenant, change: OrderChangeReport): Promise<ReconcileOutcome> {
  const seen = `backend-event:${tenant.id}:${change.eventId}`;
  if (!(await deps.store.setIfAbsent(seen, { orderId: change.orderId }, EVENT_DEDUPE_MS))) return 'duplicate';
  try {
    return await reconcileOrder(deps, tenant, change);
  } catch (error) {
    await deps.store.delete(seen).catch(() => undefined);
    throw error;
  }
}

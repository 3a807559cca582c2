/**
 * One order event as the outbox keeps it: the order as the store reported it at the event,
 * where it goes and who sends it. The body is rendered from it on every attempt by a pure
 * function (webhooks/event-body.ts), so each retry (and a replay from the dead letters) sends
 * the same bytes with the same Webhook-Id; only the signature is fresh.
 */
import { createHash } from 'node:crypto';
import type { OrderSnapshot } from '../../../adapters/contract.js';
import { randomId } from '../../security/random-id.js';

export type OrderEventKind = 'order_created' | 'order_updated';

export interface OrderEvent {
  /** Webhook-Id, the body's `event_id`, and the outbox job id. */
  id: string;
  kind: OrderEventKind;
  tenantId: string;
  /** Epoch ms of the change: Webhook-Timestamp (seconds) and `created_time`. */
  occurredAt: number;
  /** The platform's `config.webhook_url`. */
  webhookUrl: string;
  /** The business profile URL sent in PROTO-Agent. */
  businessProfile: string;
  checkoutId: string;
  order: OrderSnapshot;
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 32);

/** The one Order created event of an order: the same id however often it is enqueued. */
export const createdEventId = (tenantId: string, orderId: string) => `evt_${digest('order_created', tenantId, orderId)}`;

/** The event for a backend webhook: a redelivery of that webhook maps to the same id. */
export const backendEventId = (tenantId: string, backendId: string) => `evt_${digest('backend', tenantId, backendId)}`;

export const newEventId = () => randomId('evt_', 24);

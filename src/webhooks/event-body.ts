/** The body of an order webhook, rendered from the outbox's event on every delivery attempt. */
import type { OrderEventBody } from '../../schemas/order.js';
import type { OrderEvent } from '../capabilities/order/order-event.js';
import { renderOrder, type OrderRefs } from '../capabilities/order/order-shape.js';
import { CAPABILITY } from '../protocol/capability-registry.js';
import { capabilityRegistry } from '../protocol/negotiation.js';
import { PROTOCOL_VERSION } from '../protocol/version.js';

/** The webhook body: the full order with its envelope, plus the event's id and time. */
export function renderEventBody(event: OrderEvent, refs: OrderRefs): string {
  const body: OrderEventBody = {
    proto: { version: PROTOCOL_VERSION, status: 'success', capabilities: capabilityRegistry(new Set([CAPABILITY.order])) },
    ...renderOrder(event.order, refs),
    event_id: event.id,
    created_time: new Date(event.occurredAt).toISOString(),
  };
  return JSON.stringify(body);
}

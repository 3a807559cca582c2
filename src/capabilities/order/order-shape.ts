/**
 * The protocol order (spec part 2 §2.1-2.5) from the store's snapshot: every line that ever
 * existed with its derived status, delivery promises, the append-only event and adjustment
 * logs, and the totals as charged at checkout (adjustments carry what changed since). A pure
 * function of its inputs, so a webhook retry renders the same bytes.
 */
import type { FulfillmentExpectation, FulfillmentEvent, OrderAdjustment, OrderLine, OrderSnapshot } from '../../../adapters/contract.js';
import type { Message, Total } from '../../../schemas/common.js';
import type * as Proto from '../../../schemas/order.js';
import type { OperationContext } from '../context.js';
import { infoMessage } from '../../protocol/messages.js';
import { taxEntry, totalEntry } from '../pricing/totals.js';
import { fromStoreAddress } from '../../protocol/postal-address.js';
import { withCheckoutLineIds, type CheckoutLineRef } from './checkout-lines.js';
import type { OrderRecord } from './order-record.js';
import { permalinkFor } from './permalink.js';

/** Line status, evaluated in the order of §3. More fulfilled than the current total (a return not yet netted out) counts as fulfilled. */
export function lineStatus(quantity: Proto.OrderLineQuantity): Proto.LineStatus {
  if (quantity.total === 0) return 'removed';
  if (quantity.fulfilled >= quantity.total) return 'fulfilled';
  if (quantity.fulfilled > 0) return 'partial';
  return 'processing';
}

/** Subtotal, the discount allocated at checkout, what is left. */
function amountTotals(subtotal: number, itemsDiscount: number): Total[] {
  return [{ type: 'subtotal', amount: subtotal }, ...(itemsDiscount > 0 ? [{ type: 'items_discount', amount: -itemsDiscount }] : [])];
}

/**
 * The protocol id of each store line: the checkout's line id when the store kept it, so a line has
 * the same id in the checkout and in every snapshot; otherwise the store's own line id.
 */
type LineIds = (storeLineId: string) => string;

function lineIds(order: OrderSnapshot): LineIds {
  const ids = new Map(order.lines.map((line) => [line.id, line.checkoutLineId ?? line.id]));
  return (id) => ids.get(id) ?? id;
}

const renderQuantities = (lines: ReadonlyArray<{ id: string; quantity: number }>, ids: LineIds) =>
  lines.map(({ id, quantity }) => ({ id: ids(id), quantity }));

function renderLine(line: OrderLine, ids: LineIds): Proto.OrderLineItem {
  const quantity = { original: line.quantity.original, total: line.quantity.current, fulfilled: line.quantity.fulfilled };
  return {
    id: ids(line.id),
    item: { id: line.variantId, title: line.title, price: line.unitPrice, ...(line.imageUrl && { image_url: line.imageUrl }) },
    quantity,
    totals: [...amountTotals(line.subtotal, line.discount), { type: 'total', amount: line.subtotal - line.discount }],
    status: lineStatus(quantity),
  };
}

/**
 * A digital delivery has no postal address, yet `destination` is required: it is then an empty
 * address and the description says where the goods go.
 */
function renderExpectation(expectation: FulfillmentExpectation, ids: LineIds): Proto.Expectation {
  return {
    id: expectation.id,
    line_items: renderQuantities(expectation.lines, ids),
    method_type: expectation.method,
    destination: expectation.destination ? fromStoreAddress(expectation.destination) : {},
    ...(expectation.description && { description: expectation.description }),
    ...(expectation.fulfillableOn && { fulfillable_on: expectation.fulfillableOn }),
  };
}

function renderEvent(event: FulfillmentEvent, ids: LineIds): Proto.FulfillmentEvent {
  return {
    id: event.id,
    occurred_at: event.occurredAt,
    type: event.type,
    line_items: renderQuantities(event.lines, ids),
    ...(event.trackingNumber && { tracking_number: event.trackingNumber }),
    ...(event.trackingUrl && { tracking_url: event.trackingUrl }),
    ...(event.carrier && { carrier: event.carrier }),
    ...(event.description && { description: event.description }),
  };
}

function renderAdjustment(adjustment: OrderAdjustment, ids: LineIds): Proto.Adjustment {
  return {
    id: adjustment.id,
    type: adjustment.type,
    occurred_at: adjustment.occurredAt,
    status: adjustment.status,
    ...(adjustment.lines && { line_items: renderQuantities(adjustment.lines, ids) }),
    ...(adjustment.amount !== undefined && { totals: [{ type: 'total', amount: adjustment.amount }] }),
    ...(adjustment.description && { description: adjustment.description }),
  };
}

/** As charged; tax the prices contained is itemized under `total` as on the checkout (pricing/totals.ts). */
function orderTotals(
  { subtotal, itemsDiscount, discount, shipping, tax, includedTax, total }: OrderSnapshot['totals'],
  taxLines: OrderSnapshot['taxLines'],
): Total[] {
  return [
    ...amountTotals(subtotal, itemsDiscount),
    ...(discount > 0 ? [{ type: 'discount', amount: -discount }] : []),
    { type: 'fulfillment', amount: shipping },
    ...taxEntry(tax, includedTax),
    totalEntry(total, includedTax, taxLines),
  ];
}

export interface OrderRefs {
  /** The checkout that placed the order (from the gateway's order record). */
  checkoutId: string;
  /** The store's own order page, or the gateway's when the store has none. */
  permalinkUrl: string;
  /** The checkout's lines (from the record), whose ids a store's own line ids are shown as (checkout-lines.ts). */
  lines?: CheckoutLineRef[];
}

/**
 * The checkout from the gateway's record (the store's own reference when there is no record),
 * and the store's permalink, else the gateway's order page.
 */
export function orderRefs(
  ctx: Pick<OperationContext, 'tenant' | 'secret'>,
  order: OrderSnapshot,
  record: Pick<OrderRecord, 'checkoutId' | 'lines'> | null,
): OrderRefs {
  return {
    checkoutId: record?.checkoutId ?? order.reference ?? '',
    permalinkUrl: order.permalinkUrl ?? permalinkFor(ctx, order.id),
    ...(record?.lines && { lines: record.lines }),
  };
}

export function renderOrder(snapshot: OrderSnapshot, refs: OrderRefs): Proto.OrderBody {
  const order = withCheckoutLineIds(snapshot, refs.lines);
  const messages: Message[] = order.canceled
    ? [infoMessage('order_canceled', 'The store canceled this order; items not yet fulfilled will not ship.')]
    : [];
  const ids = lineIds(order);
  return {
    id: order.id,
    checkout_id: refs.checkoutId,
    permalink_url: refs.permalinkUrl,
    line_items: order.lines.map((line) => renderLine(line, ids)),
    fulfillment: {
      expectations: order.expectations.map((e) => renderExpectation(e, ids)),
      events: order.events.map((e) => renderEvent(e, ids)),
    },
    adjustments: order.adjustments.map((a) => renderAdjustment(a, ids)),
    currency: order.currency,
    totals: orderTotals(order.totals, order.taxLines),
    ...(messages.length > 0 && { messages }),
  };
}

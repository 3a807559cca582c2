/**
 * A Medusa order (Admin API) as the contract's snapshot. Two readings of the order: as it is now
 * (quantities, fulfillments, returns, refunds, status) and as it was placed (its version 1: the
 * lines, discounts and totals charged at checkout). Medusa versions an order on every confirmed
 * change and reports its totals for the current version: after a return the order's `total`
 * drops and the item's `subtotal` counts only what was kept (@medusajs/utils totals/line-item
 * getLineItemTotals), while the item's `quantity` stays as it was, the return counted in its
 * `detail` (order module utils/actions/receive-return-item.js).
 */
import type { FulfillmentEvent, FulfillmentExpectation, OrderAdjustment, OrderLine, OrderSnapshot, PostalAddress } from '../contract.js';
import { toMinor } from './money.js';
import type { MedusaAddress, MedusaLineItem, MedusaOrder } from './shapes.js';
import { shippingAsPriced, splitTax } from './included-tax.js';
import { discountsOf, settleTotals } from './totals.js';

/** The order as it is now. */
export const ORDER_FIELDS =
  'id,version,display_id,status,payment_status,created_at,updated_at,canceled_at,currency_code,metadata,cart.id,total,subtotal,tax_total,' +
  'shipping_subtotal,*items,items.subtotal,*items.detail,*items.adjustments,*shipping_address,*shipping_methods,' +
  '*shipping_methods.adjustments,*fulfillments,*fulfillments.labels,*fulfillments.items,' +
  '*payment_collections,*payment_collections.payments,*payment_collections.payments.refunds,*returns,*returns.items';

/** The order as placed (`?version=1`): what was charged at checkout. */
export const CHECKOUT_FIELDS =
  'id,version,currency_code,total,tax_total,shipping_subtotal,*items,items.subtotal,items.tax_total,*items.tax_lines,*items.adjustments,' +
  '*shipping_methods,shipping_methods.tax_total,*shipping_methods.tax_lines,*shipping_methods.adjustments';

const iso = (value: unknown) => new Date(String(value)).toISOString();
const count = (value: unknown) => Number(value ?? 0);

const fromMedusaAddress = (a: MedusaAddress | null | undefined): PostalAddress | undefined =>
  a
    ? {
        ...(a.first_name && { firstName: a.first_name }),
        ...(a.last_name && { lastName: a.last_name }),
        ...(a.address_1 && { streetAddress: a.address_1 }),
        ...(a.address_2 && { extendedAddress: a.address_2 }),
        ...(a.city && { locality: a.city }),
        ...(a.province && { region: a.province }),
        ...(a.country_code && { country: String(a.country_code).toUpperCase() }),
        ...(a.postal_code && { postalCode: a.postal_code }),
        ...(a.phone && { phone: a.phone }),
      }
    : undefined;

/**
 * A line: its subtotal and discount as placed (before tax, as Medusa's item subtotal is), its
 * current quantity less what came back (received or dismissed as damaged, as Medusa's totals
 * count it); an item added after checkout was not there at checkout (original 0).
 */
function lineOf(item: MedusaLineItem, placed: MedusaLineItem | undefined, currency: string): OrderLine {
  const unitPrice = toMinor(item.unit_price, currency);
  const original = placed ? count(placed.quantity) : 0;
  const returned = count(item.detail?.return_received_quantity) + count(item.detail?.return_dismissed_quantity);
  const subtotal = !placed
    ? 0
    : placed.is_tax_inclusive === true || placed.subtotal === undefined || placed.subtotal === null
      ? unitPrice * original
      : toMinor(placed.subtotal, currency);
  return {
    id: item.id,
    ...(typeof item.metadata?.gateway_line_id === 'string' && { checkoutLineId: item.metadata.gateway_line_id }),
    variantId: item.variant_id,
    productId: item.product_id,
    title: item.product_title ?? item.title ?? '',
    ...(item.variant_sku && { sku: item.variant_sku }),
    unitPrice,
    ...(item.thumbnail && { imageUrl: item.thumbnail }),
    quantity: { original, current: Math.max(0, count(item.quantity) - returned), fulfilled: count(item.detail?.fulfilled_quantity) },
    subtotal,
    discount: 0,
  };
}

/** Shipped lines go to the shipping address; an item that needs no shipping (no shipping profile) is delivered digitally. */
function expectationsOf(order: MedusaOrder, lines: OrderLine[]): FulfillmentExpectation[] {
  const shipped = new Set((order.items ?? []).filter((i) => i.requires_shipping !== false).map((i) => i.id));
  const wanted = (digital: boolean) =>
    lines.filter((l) => shipped.has(l.id) !== digital && l.quantity.current > 0).map((l) => ({ id: l.id, quantity: l.quantity.current }));
  const destination = fromMedusaAddress(order.shipping_address);
  const methods = (order.shipping_methods ?? []).map((m) => m.name).filter(Boolean);
  const physical = wanted(false);
  const digital = wanted(true);
  return [
    ...(physical.length
      ? [
          {
            id: 'shipping',
            lines: physical,
            method: 'shipping' as const,
            ...(destination && { destination }),
            ...(methods.length && { description: methods.join(', ') }),
            fulfillableOn: 'now',
          },
        ]
      : []),
    ...(digital.length
      ? [
          {
            id: 'digital',
            lines: digital,
            method: 'digital' as const,
            description: 'Delivered by the store, nothing ships.',
            fulfillableOn: 'now',
          },
        ]
      : []),
  ];
}

function eventsOf(order: MedusaOrder): FulfillmentEvent[] {
  const events: FulfillmentEvent[] = [];
  for (const f of order.fulfillments ?? []) {
    const fulfilled = (f.items ?? []).map((i) => ({ id: i.line_item_id, quantity: Number(i.quantity) }));
    const label = (f.labels ?? [])[0];
    const tracking = label
      ? {
          ...(label.tracking_number && { trackingNumber: label.tracking_number }),
          ...(label.tracking_url && { trackingUrl: label.tracking_url }),
        }
      : {};
    events.push({ id: `${f.id}:processing`, occurredAt: iso(f.created_at), type: 'processing', lines: fulfilled });
    if (f.shipped_at) events.push({ id: `${f.id}:shipped`, occurredAt: iso(f.shipped_at), type: 'shipped', lines: fulfilled, ...tracking });
    if (f.delivered_at)
      events.push({ id: `${f.id}:delivered`, occurredAt: iso(f.delivered_at), type: 'delivered', lines: fulfilled, ...tracking });
    if (f.canceled_at) events.push({ id: `${f.id}:canceled`, occurredAt: iso(f.canceled_at), type: 'canceled', lines: fulfilled });
  }
  return events;
}

/** Refunds of the order's payments, and its returns: requested (pending), received (completed), canceled (failed). */
function adjustmentsOf(order: MedusaOrder, currency: string): OrderAdjustment[] {
  const adjustments: OrderAdjustment[] = [];
  for (const collection of order.payment_collections ?? [])
    for (const payment of collection.payments ?? [])
      for (const refund of payment.refunds ?? [])
        adjustments.push({
          id: refund.id,
          type: 'refund',
          occurredAt: iso(refund.created_at),
          status: 'completed',
          amount: -toMinor(refund.amount, currency),
          ...(refund.note && { description: refund.note }),
        });
  for (const ret of order.returns ?? []) {
    if (ret.status === 'open') continue; // still being drafted by the merchant
    const status = ret.canceled_at ? 'failed' : ret.received_at ? 'completed' : 'pending';
    const quantity = (i: NonNullable<typeof ret.items>[number]) => count(status === 'completed' ? i.received_quantity : i.quantity);
    adjustments.push({
      id: ret.id,
      type: 'return',
      occurredAt: iso(ret.canceled_at ?? ret.received_at ?? ret.created_at),
      status,
      lines: (ret.items ?? []).filter((i) => quantity(i) > 0).map((i) => ({ id: i.item_id, quantity: -quantity(i) })),
    });
  }
  return adjustments;
}

/**
 * The snapshot of `order` (now) whose checkout is `placed` (its version 1; the same order when
 * nothing changed since). Totals are the checkout's, as Medusa charged them (totals.ts).
 */
export function toSnapshot(order: MedusaOrder, placed: MedusaOrder = order): OrderSnapshot {
  const currency = String(order.currency_code).toUpperCase();
  const minor = (amount: unknown) => toMinor(amount ?? 0, currency);
  const placedItems = new Map((placed.items ?? []).map((i) => [i.id, i]));
  const lines = (order.items ?? []).map((item) => lineOf(item, placedItems.get(item.id), currency));
  const discounts = discountsOf(
    [
      ...(placed.items ?? []).map((i) => ({
        target: { kind: 'line' as const, lineId: i.id },
        adjustments: i.adjustments ?? [],
        gross: i.is_tax_inclusive === true,
      })),
      ...(placed.shipping_methods ?? []).map((m) => ({
        target: { kind: 'order' as const },
        adjustments: m.adjustments ?? [],
        gross: m.is_tax_inclusive === true,
      })),
    ],
    [],
    currency,
  );
  const methods = placed.shipping_methods ?? [];
  const taxed = splitTax([...(placed.items ?? []), ...methods], placed.tax_total, currency);
  const totals = settleTotals(
    {
      subtotal: lines.reduce((s, l) => s + l.subtotal, 0),
      shipping: shippingAsPriced(methods, placed.shipping_subtotal, currency),
      tax: taxed.tax,
      total: minor(placed.total),
      ...(taxed.included && { includedTax: taxed.included.includedTax }),
    },
    discounts,
  );
  for (const line of lines)
    line.discount = discounts
      .flatMap((d) => d.allocations)
      .reduce((s, a) => s + (a.target.kind === 'line' && a.target.lineId === line.id ? a.amount : 0), 0);
  const paid = (order.payment_collections ?? []).some((c) => (c.payments ?? []).length > 0);
  return {
    id: order.id,
    ...(typeof order.metadata?.gateway_reference === 'string' && { reference: order.metadata.gateway_reference }),
    // The cart it came from (the order-cart link): the store reference a challenge or a handoff named.
    ...(order.cart?.id && { storeReference: order.cart.id }),
    currency,
    createdAt: iso(order.created_at),
    lines,
    expectations: expectationsOf(order, lines),
    events: eventsOf(order),
    adjustments: adjustmentsOf(order, currency),
    totals: { ...totals, shipping: totals.shipping ?? 0, tax: totals.tax ?? 0 },
    ...(taxed.included && {
      taxLines: [...(totals.tax ? [{ title: 'Tax', amount: totals.tax }] : []), ...taxed.included.taxLines],
    }),
    ...(order.status === 'canceled' && { canceled: true }),
    // Medusa places an order whose payment is still to be authorized (a deferred method): it has no payment yet.
    ...(!paid && totals.total > 0 && { awaitingPayment: true }),
  };
}

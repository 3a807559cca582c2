/**
 * A WooCommerce order as the gateway's order snapshot (its id is also its `storeReference`: the
 * Store API checkout names the order it makes, which a challenge passes on as its store reference):
 * - lines are the order's line items (the store's ids; the checkout's line id when the gateway
 *   placed the order and stored it as `_proto_line_id` line meta); the variant of a variation
 *   sold with "any" attributes comes back from the attribute values in the line meta;
 * - events from core order fulfillments (`_items`, `_tracking_number`, `_shipment_provider`,
 *   `_tracking_url`) or, without them, the Shipment Tracking extension's items (order-wide);
 * - adjustments from refunds (money back, items returned to the buyer's count) and
 *   cancellation; totals as charged. An order whose prices include tax (`prices_include_tax`)
 *   is read as the buyer was quoted: gross lines and item discount (the REST API's line
 *   `subtotal`/`total` are net, with `subtotal_tax`/`total_tax` beside them), the items' tax
 *   (`cart_tax`) as `includedTax` and only the shipping tax added, per rate in `taxLines`
 *   (`tax_lines[].tax_total` included, `shipping_tax_total` added).
 */
import type { FulfillmentEvent, FulfillmentExpectation, OrderAdjustment, OrderLine, OrderSnapshot } from '../contract.js';
import { fromWcAddress } from './addresses.js';
import type { KnownVariant } from './catalog.js';
import { requiredMinor } from './money.js';
import { encodeVariantId } from './variant-id.js';
import type { WcFulfillment, WcOrder, WcRefund, WcTrackingItem } from './wc-shapes.js';

export const REFERENCE_META = '_proto_reference';
export const LINE_META = '_proto_line_id';

export type Tracking =
  { kind: 'fulfillments'; items: WcFulfillment[] } | { kind: 'shipment-tracking'; items: WcTrackingItem[] } | { kind: 'none' };

const gmt = (text: string | null | undefined): string | undefined => (text ? `${text.replace(/Z$/, '')}Z` : undefined);
const meta = (list: Array<{ key: string; value: unknown }>, key: string) => list.find((m) => m.key === key)?.value;

/**
 * Paid: processing or completed, or a payment date (a paid order refunded or cancelled since).
 * pending, on-hold (awaiting a bank transfer), failed, checkout-draft and an unpaid cancelled
 * order are not.
 */
export const isPaid = (order: Pick<WcOrder, 'status' | 'date_paid_gmt'>): boolean =>
  order.status === 'processing' || order.status === 'completed' || Boolean(order.date_paid_gmt);

export function referenceOf(order: Pick<WcOrder, 'meta_data'>): string | undefined {
  const value = meta(order.meta_data, REFERENCE_META);
  return typeof value === 'string' && value ? value : undefined;
}

export interface OrderMapInput {
  order: WcOrder;
  refunds: WcRefund[];
  tracking: Tracking;
  /** The variable products of the lines, to rebuild "any" variant ids from the line meta. */
  variants: Map<string, KnownVariant>;
  storeUrl: string;
}

/** The variant sold on a line; a variation with "any" attributes gets the values stored in the line's meta. */
function variantIdOf(item: WcOrder['line_items'][number], variants: Map<string, KnownVariant>): string {
  if (!item.variation_id) return String(item.product_id);
  const base = String(item.variation_id);
  const product = [...variants.values()].find((k) => k.variant.id.split('~')[0] === base)?.product;
  const siblings = product?.variants.filter((v) => v.id.split('~')[0] === base) ?? [];
  if (!product || siblings.length <= 1) return siblings[0]?.id ?? base;
  const anyAxes = product.options.filter((_, i) => new Set(siblings.map((v) => v.options[i]?.value)).size > 1);
  const values = anyAxes.map((axis) => {
    const value = meta(item.meta_data, axis.name) ?? meta(item.meta_data, axis.name.toLowerCase());
    return typeof value === 'string' ? value : '';
  });
  return encodeVariantId(item.variation_id, values);
}

type Money = (value: string, what: string) => number;

/** Units refunded per line item (a refund's line items name theirs in `_refunded_item_id` meta). */
function refundedQuantities(refunds: WcRefund[]): Map<number, number> {
  const refunded = new Map<number, number>();
  for (const r of refunds) {
    for (const li of r.line_items) {
      const id = Number(meta(li.meta_data, '_refunded_item_id'));
      if (id) refunded.set(id, (refunded.get(id) ?? 0) + Math.abs(li.quantity));
    }
  }
  return refunded;
}

/** A shipped event per fulfilled core fulfillment or Shipment Tracking item, and the units shipped per line item. */
function shipments(order: WcOrder, tracking: Tracking): { events: FulfillmentEvent[]; shipped: Map<number, number> } {
  const shipped = new Map<number, number>();
  const allLines = order.line_items.map((li) => ({ id: String(li.id), quantity: li.quantity }));
  if (tracking.kind === 'fulfillments') {
    const events = tracking.items
      .filter((x) => x.is_fulfilled)
      .map((f): FulfillmentEvent => {
        const items = (meta(f.meta_data, '_items') as Array<{ item_id: number; qty: number }> | undefined) ?? [];
        for (const i of items) shipped.set(i.item_id, (shipped.get(i.item_id) ?? 0) + i.qty);
        const number = meta(f.meta_data, '_tracking_number');
        const url = meta(f.meta_data, '_tracking_url');
        const carrier = meta(f.meta_data, '_shipment_provider');
        return {
          id: `fulfillment-${f.id}`,
          occurredAt: gmt(f.date_updated) ?? gmt(order.date_modified_gmt) ?? gmt(order.date_created_gmt)!,
          type: 'shipped',
          lines: items.length ? items.map((i) => ({ id: String(i.item_id), quantity: i.qty })) : allLines,
          ...(typeof number === 'string' && number && { trackingNumber: number }),
          ...(typeof url === 'string' && url && { trackingUrl: url }),
          ...(typeof carrier === 'string' && carrier && { carrier }),
        };
      });
    return { events, shipped };
  }
  if (tracking.kind === 'none') return { events: [], shipped };
  // Shipment Tracking items are order-wide: each ships every line.
  if (tracking.items.length) for (const li of order.line_items) shipped.set(li.id, li.quantity);
  const events = tracking.items.map((t): FulfillmentEvent => ({
    id: `tracking-${t.tracking_id}`,
    occurredAt:
      typeof t.date_shipped === 'number' ? new Date(t.date_shipped * 1000).toISOString() : `${t.date_shipped.slice(0, 10)}T00:00:00Z`,
    type: 'shipped',
    lines: allLines,
    trackingNumber: t.tracking_number,
    ...(t.tracking_link && { trackingUrl: t.tracking_link }),
    ...(t.tracking_provider && { carrier: t.tracking_provider }),
  }));
  return { events, shipped };
}

/** The order's line items: current is what refunds left, fulfilled what shipped of it. */
function orderLines(
  order: WcOrder,
  variants: Map<string, KnownVariant>,
  counts: { refunded: Map<number, number>; shipped: Map<number, number> },
  money: Money,
): OrderLine[] {
  const gross = order.prices_include_tax;
  return order.line_items.map((li) => {
    const subtotal = money(li.subtotal, `the subtotal of line ${li.id}`) + (gross ? money(li.subtotal_tax, `the tax of line ${li.id}`) : 0);
    const total = money(li.total, `the total of line ${li.id}`) + (gross ? money(li.total_tax, `the tax of line ${li.id}`) : 0);
    const checkoutLineId = meta(li.meta_data, LINE_META);
    const current = Math.max(0, li.quantity - (counts.refunded.get(li.id) ?? 0));
    return {
      id: String(li.id),
      ...(typeof checkoutLineId === 'string' && checkoutLineId && { checkoutLineId }),
      variantId: variantIdOf(li, variants),
      productId: String(li.product_id),
      title: li.name,
      ...(li.sku && { sku: li.sku }),
      unitPrice: li.quantity > 0 ? Math.round(subtotal / li.quantity) : subtotal,
      ...(typeof li.image?.src === 'string' && li.image.src && { imageUrl: li.image.src }),
      quantity: { original: li.quantity, current, fulfilled: Math.min(current, counts.shipped.get(li.id) ?? 0) },
      subtotal,
      discount: subtotal - total,
    };
  });
}

/** Refunds (money back, items returned to the buyer), then the cancellation of a cancelled or trashed order. */
function adjustments(order: WcOrder, refunds: WcRefund[], canceled: boolean, money: Money): OrderAdjustment[] {
  const refunded = refunds.map((r): OrderAdjustment => ({
    id: `refund-${r.id}`,
    type: 'refund',
    occurredAt: gmt(r.date_created_gmt)!,
    status: 'completed',
    amount: -money(r.amount, `the amount of refund ${r.id}`),
    ...(r.line_items.length > 0 && {
      lines: r.line_items.flatMap((li) => {
        const id = meta(li.meta_data, '_refunded_item_id');
        return typeof id === 'string' || typeof id === 'number' ? [{ id: String(id), quantity: -Math.abs(li.quantity) }] : [];
      }),
    }),
    ...(r.reason && { description: r.reason }),
  }));
  if (!canceled) return refunded;
  const cancellation: OrderAdjustment = {
    id: `cancellation-${order.id}`,
    type: 'cancellation',
    occurredAt: gmt(order.date_modified_gmt) ?? gmt(order.date_created_gmt)!,
    status: 'completed',
  };
  return [...refunded, cancellation];
}

/** Every line to the order's shipping address with its shipping methods, or, with no shipping line, digital. */
function expectation(order: WcOrder, lines: OrderLine[]): FulfillmentExpectation {
  const shipped = order.shipping_lines.length > 0;
  return {
    id: shipped ? 'shipping' : 'digital',
    lines: lines.map((l) => ({ id: l.id, quantity: l.quantity.current })),
    method: shipped ? 'shipping' : 'digital',
    ...(shipped && {
      destination: fromWcAddress(order.shipping),
      description: order.shipping_lines.map((s) => s.method_title).join(', '),
    }),
  };
}

/** As charged; the order-level discount is what the store's total leaves beside the item discounts. */
function totals(order: WcOrder, lines: OrderLine[], money: Money): OrderSnapshot['totals'] {
  const gross = order.prices_include_tax;
  const subtotal = lines.reduce((n, l) => n + l.subtotal, 0);
  const itemsDiscount = money(order.discount_total, 'the order discount') + (gross ? money(order.discount_tax, 'the discount tax') : 0);
  const shipping = money(order.shipping_total, 'the order shipping');
  const tax = gross ? money(order.shipping_tax, 'the shipping tax') : money(order.total_tax, 'the order tax');
  const total = money(order.total, 'the order total');
  const discount = subtotal - itemsDiscount + shipping + tax - total;
  if (!gross) return { subtotal, itemsDiscount, discount, shipping, tax, total };
  return { subtotal, itemsDiscount, discount, shipping, tax, includedTax: money(order.cart_tax, 'the items tax'), total };
}

/** Per rate, the tax inside the prices and the tax on shipping, of an order whose prices include tax. */
function includedTaxLines(order: WcOrder, money: Money): NonNullable<OrderSnapshot['taxLines']> {
  return order.tax_lines.flatMap((t) => {
    const inside = money(t.tax_total, `the tax of ${t.label}`);
    const onShipping = money(t.shipping_tax_total, `the shipping tax of ${t.label}`);
    return [
      ...(inside > 0 ? [{ title: t.label, amount: inside, included: true }] : []),
      ...(onShipping > 0 ? [{ title: t.label, amount: onShipping }] : []),
    ];
  });
}

export function toSnapshot({ order, refunds, tracking, variants, storeUrl }: OrderMapInput): OrderSnapshot {
  const money: Money = (value, what) => requiredMinor(value, order.currency, what);
  const { events, shipped } = shipments(order, tracking);
  const lines = orderLines(order, variants, { refunded: refundedQuantities(refunds), shipped }, money);
  const canceled = order.status === 'cancelled' || order.status === 'trash';
  const reference = referenceOf(order);
  return {
    id: String(order.id),
    ...(reference && { reference }),
    // The order is the store-side object a challenge named (requires_action storeReference).
    storeReference: String(order.id),
    currency: order.currency,
    createdAt: gmt(order.date_created_gmt)!,
    permalinkUrl: `${storeUrl}/checkout/order-received/${order.id}/?key=${order.order_key}`,
    lines,
    expectations: [expectation(order, lines)],
    events,
    adjustments: adjustments(order, refunds, canceled, money),
    totals: totals(order, lines, money),
    ...(order.prices_include_tax && { taxLines: includedTaxLines(order, money) }),
    ...(canceled && { canceled: true }),
    ...(!isPaid(order) && { awaitingPayment: true }),
  };
}

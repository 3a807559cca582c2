/**
 * Admin orders as the contract's snapshot: lines with Shopify's own ids (the checkout's line id
 * comes back as the line attribute the cart carried), fulfillments as a shipped event with
 * tracking plus one event per carrier update, refunds and cancellation as adjustments, totals
 * as charged, and whether the buyer has paid yet (a manual payment method leaves it unpaid).
 */
import type { FulfillmentEvent, FulfillmentExpectation, OrderAdjustment, OrderLine, OrderSnapshot } from '../contract.js';
import { fromShopifyAddress } from './addresses.js';
import { money, type MoneyV2 } from './money.js';
import { LINE_ATTRIBUTE, orderIdOf, REFERENCE_ATTRIBUTE } from './ids.js';

type Bag = { presentmentMoney: MoneyV2 };
type Attr = { key: string; value: string | null };

export interface AdminOrder {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  presentmentCurrencyCode: string;
  statusPageUrl: string;
  taxesIncluded: boolean;
  displayFinancialStatus: string | null;
  /** The cart the order was placed from (Shopify's checkout); null for an order made from a draft order. */
  cartToken: string | null;
  customAttributes: Attr[];
  tags: string[];
  shippingAddress: {
    firstName: string | null;
    lastName: string | null;
    address1: string | null;
    address2: string | null;
    city: string | null;
    provinceCode: string | null;
    countryCodeV2: string | null;
    zip: string | null;
    phone: string | null;
  } | null;
  lineItems: {
    nodes: Array<{
      id: string;
      title: string;
      variantTitle: string | null;
      sku: string | null;
      quantity: number;
      currentQuantity: number;
      unfulfilledQuantity: number;
      requiresShipping: boolean;
      customAttributes: Attr[];
      variant: { id: string } | null;
      product: { id: string } | null;
      image: { url: string } | null;
      originalUnitPriceSet: Bag;
      originalTotalSet: Bag;
      discountAllocations: Array<{ allocatedAmountSet: Bag }>;
    }>;
  };
  shippingLines: { nodes: Array<{ title: string; originalPriceSet: Bag }> };
  fulfillments: Array<{
    id: string;
    createdAt: string;
    updatedAt: string;
    displayStatus: string | null;
    trackingInfo: Array<{ company: string | null; number: string | null; url: string | null }>;
    fulfillmentLineItems: { nodes: Array<{ quantity: number | null; lineItem: { id: string } }> };
    events: { nodes: Array<{ id: string; status: string; happenedAt: string; message: string | null }> };
  }>;
  refunds: Array<{
    id: string;
    createdAt: string | null;
    note: string | null;
    totalRefundedSet: Bag;
    refundLineItems: { nodes: Array<{ quantity: number; lineItem: { id: string } }> };
  }>;
  subtotalPriceSet: Bag | null;
  totalDiscountsSet: Bag | null;
  totalShippingPriceSet: Bag;
  taxLines: Array<{ title: string; priceSet: Bag }>;
  totalTaxSet: Bag | null;
  totalPriceSet: Bag;
}

/**
 * Financial statuses of an order the buyer has not paid (Admin 2026-10 `OrderDisplayFinancialStatus`):
 * PENDING (a manual payment method, a provider that needs time), EXPIRED (an authorization not
 * captured in time), VOIDED (cancelled unpaid). AUTHORIZED is paid as far as the buyer goes: the
 * money is held, the capture is the merchant's.
 */
const UNPAID = new Set(['PENDING', 'EXPIRED', 'VOIDED']);

const amount = (bag: Bag | null | undefined) => (bag ? money(bag.presentmentMoney) : 0);
const attribute = (attrs: Attr[], key: string) => attrs.find((a) => a.key === key)?.value ?? undefined;
const shortId = (gid: string) => orderIdOf(gid);

/** Shopify's fulfillment event statuses as the protocol's open event types. */
const EVENT_TYPES: Record<string, string> = {
  CONFIRMED: 'processing',
  LABEL_PRINTED: 'processing',
  LABEL_PURCHASED: 'processing',
  READY_FOR_PICKUP: 'ready_for_pickup',
  CARRIER_PICKED_UP: 'in_transit',
  IN_TRANSIT: 'in_transit',
  OUT_FOR_DELIVERY: 'out_for_delivery',
  ATTEMPTED_DELIVERY: 'delivery_attempted',
  DELAYED: 'delayed',
  DELIVERED: 'delivered',
  FAILURE: 'failed',
};

type AdminLine = AdminOrder['lineItems']['nodes'][number];

/** Quantity per line item id, summed over some of the order's records. */
function sumByLine(entries: Array<{ lineItem: { id: string }; quantity: number | null }>): Map<string, number> {
  const sums = new Map<string, number>();
  for (const { lineItem, quantity } of entries) sums.set(lineItem.id, (sums.get(lineItem.id) ?? 0) + (quantity ?? 0));
  return sums;
}

/** Every line item with Shopify's id, the checkout's line id it carried, and what was fulfilled of it. */
function orderLines(order: AdminOrder): OrderLine[] {
  const fulfilled = sumByLine(order.fulfillments.flatMap((f) => f.fulfillmentLineItems.nodes));
  return order.lineItems.nodes.map((l) => {
    const checkoutLineId = attribute(l.customAttributes, LINE_ATTRIBUTE);
    return {
      id: shortId(l.id),
      ...(checkoutLineId && { checkoutLineId }),
      variantId: l.variant?.id ?? '',
      productId: l.product?.id ?? '',
      title: l.title,
      ...(l.sku && { sku: l.sku }),
      unitPrice: amount(l.originalUnitPriceSet),
      ...(l.image && { imageUrl: l.image.url }),
      quantity: { original: l.quantity, current: l.currentQuantity, fulfilled: Math.min(fulfilled.get(l.id) ?? 0, l.quantity) },
      subtotal: amount(l.originalTotalSet),
      // Every discount on the line, as the cart allocated them: `totalDiscountSet` leaves out order-level ones.
      discount: l.discountAllocations.reduce((s, a) => s + amount(a.allocatedAmountSet), 0),
    };
  });
}

/** Physical lines shipped to the order's address, digital lines delivered without one. */
function expectations(order: AdminOrder): FulfillmentExpectation[] {
  const linesOf = (items: AdminLine[]) => items.map((l) => ({ id: shortId(l.id), quantity: l.quantity }));
  const physical = order.lineItems.nodes.filter((l) => l.requiresShipping);
  const digital = order.lineItems.nodes.filter((l) => !l.requiresShipping);
  const shipping: FulfillmentExpectation = {
    id: 'shipping',
    lines: linesOf(physical),
    method: 'shipping',
    ...(order.shippingAddress && { destination: fromShopifyAddress(order.shippingAddress) }),
    ...(order.shippingLines.nodes[0] && { description: order.shippingLines.nodes[0].title }),
    fulfillableOn: 'now',
  };
  return [
    ...(physical.length ? [shipping] : []),
    ...(digital.length ? [{ id: 'digital', lines: linesOf(digital), method: 'digital' as const }] : []),
  ];
}

/** Each fulfillment as a shipped event with its tracking, then one event per carrier update. */
function fulfillmentEvents(order: AdminOrder): FulfillmentEvent[] {
  return order.fulfillments.flatMap((f) => {
    const tracking = f.trackingInfo[0];
    const trackingFields = {
      ...(tracking?.number && { trackingNumber: tracking.number }),
      ...(tracking?.url && { trackingUrl: tracking.url }),
      ...(tracking?.company && { carrier: tracking.company }),
    };
    const lines = f.fulfillmentLineItems.nodes.map((fl) => ({ id: shortId(fl.lineItem.id), quantity: fl.quantity ?? 0 }));
    return [
      { id: shortId(f.id), occurredAt: f.createdAt, type: 'shipped', lines, ...trackingFields },
      ...f.events.nodes.map((e) => ({
        id: shortId(e.id),
        occurredAt: e.happenedAt,
        type: EVENT_TYPES[e.status] ?? e.status.toLowerCase(),
        lines,
        ...trackingFields,
        ...(e.message && { description: e.message }),
      })),
    ];
  });
}

/** Refunds (money back, items returned), then the cancellation with the units it removed beyond them. */
function adjustments(order: AdminOrder): OrderAdjustment[] {
  const refunds: OrderAdjustment[] = order.refunds.map((r) => ({
    id: shortId(r.id),
    type: 'refund',
    occurredAt: r.createdAt ?? order.updatedAt,
    status: 'completed',
    ...(r.refundLineItems.nodes.length && {
      lines: r.refundLineItems.nodes.map((rl) => ({ id: shortId(rl.lineItem.id), quantity: -rl.quantity })),
    }),
    amount: -amount(r.totalRefundedSet),
    ...(r.note && { description: r.note }),
  }));
  if (!order.cancelledAt) return refunds;
  const refundedQty = sumByLine(order.refunds.flatMap((r) => r.refundLineItems.nodes));
  const removed = order.lineItems.nodes
    .map((l) => ({ id: shortId(l.id), quantity: -(l.quantity - l.currentQuantity - (refundedQty.get(l.id) ?? 0)) }))
    .filter((l) => l.quantity < 0);
  const cancellation: OrderAdjustment = {
    id: `${shortId(order.id)}-cancellation`,
    type: 'cancellation',
    occurredAt: order.cancelledAt,
    status: 'completed',
    ...(removed.length && { lines: removed }),
  };
  return [...refunds, cancellation];
}

/**
 * As charged: item discounts from the lines, the rest of Shopify's discount total on the shipping.
 * Tax inside the prices (`taxesIncluded`: "the subtotal and line item prices include tax amounts")
 * is not added, as in the quote (tax.ts): it is the included tax, `totalTaxSet`.
 */
function totals(order: AdminOrder, lines: OrderLine[]): OrderSnapshot['totals'] {
  const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
  const itemsDiscount = lines.reduce((s, l) => s + l.discount, 0);
  const tax = amount(order.totalTaxSet);
  return {
    subtotal,
    itemsDiscount,
    discount: amount(order.totalDiscountsSet) - itemsDiscount,
    shipping: amount(order.totalShippingPriceSet),
    tax: order.taxesIncluded ? 0 : tax,
    total: amount(order.totalPriceSet),
    ...(order.taxesIncluded && tax > 0 && { includedTax: tax }),
  };
}

/** The order's tax per jurisdiction (`Order.taxLines`, before returns), as the quote names it. */
function taxLines(order: AdminOrder): NonNullable<OrderSnapshot['taxLines']> {
  return order.taxLines
    .map((t) => ({ title: t.title, amount: money(t.priceSet.presentmentMoney), ...(order.taxesIncluded && { included: true }) }))
    .filter((t) => t.amount !== 0);
}

export function toOrderSnapshot(order: AdminOrder): OrderSnapshot {
  const reference = attribute(order.customAttributes, REFERENCE_ATTRIBUTE);
  const lines = orderLines(order);
  return {
    id: shortId(order.id),
    ...(reference && { reference }),
    ...(order.cartToken && { storeReference: order.cartToken }),
    currency: order.presentmentCurrencyCode,
    createdAt: order.createdAt,
    permalinkUrl: order.statusPageUrl,
    lines,
    expectations: expectations(order),
    events: fulfillmentEvents(order),
    adjustments: adjustments(order),
    totals: totals(order, lines),
    taxLines: taxLines(order),
    ...(order.cancelledAt && { canceled: true }),
    ...(UNPAID.has(order.displayFinancialStatus ?? '') && { awaitingPayment: true }),
  };
}

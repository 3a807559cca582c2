/**
 * Admin orders as the contract's snapshot: lines with Shopify's own ids (the checkout's line id
 * comes back as the line attribute the cart carried), fulfillments as a shipped event with
 * tracking plus one event per carrier update, refunds and cancellation as adjustments, totals
 * as charged.
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
      totalDiscountSet: Bag;
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
  totalTaxSet: Bag | null;
  totalPriceSet: Bag;
}

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

export function toOrderSnapshot(order: AdminOrder): OrderSnapshot {
  const reference = attribute(order.customAttributes, REFERENCE_ATTRIBUTE);
  const lineId = (gid: string) => shortId(gid);
  const fulfilled = new Map<string, number>();
  for (const f of order.fulfillments)
    for (const fl of f.fulfillmentLineItems.nodes) fulfilled.set(fl.lineItem.id, (fulfilled.get(fl.lineItem.id) ?? 0) + (fl.quantity ?? 0));
  const refundedQty = new Map<string, number>();
  for (const r of order.refunds)
    for (const rl of r.refundLineItems.nodes) refundedQty.set(rl.lineItem.id, (refundedQty.get(rl.lineItem.id) ?? 0) + rl.quantity);

  const lines: OrderLine[] = order.lineItems.nodes.map((l) => {
    const checkoutLineId = attribute(l.customAttributes, LINE_ATTRIBUTE);
    return {
      id: lineId(l.id),
      ...(checkoutLineId && { checkoutLineId }),
      variantId: l.variant?.id ?? '',
      productId: l.product?.id ?? '',
      title: l.title,
      ...(l.sku && { sku: l.sku }),
      unitPrice: amount(l.originalUnitPriceSet),
      ...(l.image && { imageUrl: l.image.url }),
      quantity: { original: l.quantity, current: l.currentQuantity, fulfilled: Math.min(fulfilled.get(l.id) ?? 0, l.quantity) },
      subtotal: amount(l.originalTotalSet),
      discount: amount(l.totalDiscountSet),
    };
  });

  const physical = order.lineItems.nodes.filter((l) => l.requiresShipping);
  const digital = order.lineItems.nodes.filter((l) => !l.requiresShipping);
  const expectations: FulfillmentExpectation[] = [
    ...(physical.length
      ? [
          {
            id: 'shipping',
            lines: physical.map((l) => ({ id: lineId(l.id), quantity: l.quantity })),
            method: 'shipping' as const,
            ...(order.shippingAddress && { destination: fromShopifyAddress(order.shippingAddress) }),
            ...(order.shippingLines.nodes[0] && { description: order.shippingLines.nodes[0].title }),
            fulfillableOn: 'now',
          },
        ]
      : []),
    ...(digital.length
      ? [{ id: 'digital', lines: digital.map((l) => ({ id: lineId(l.id), quantity: l.quantity })), method: 'digital' as const }]
      : []),
  ];

  const events: FulfillmentEvent[] = order.fulfillments.flatMap((f) => {
    const tracking = f.trackingInfo[0];
    const trackingFields = {
      ...(tracking?.number && { trackingNumber: tracking.number }),
      ...(tracking?.url && { trackingUrl: tracking.url }),
      ...(tracking?.company && { carrier: tracking.company }),
    };
    const fLines = f.fulfillmentLineItems.nodes.map((fl) => ({ id: lineId(fl.lineItem.id), quantity: fl.quantity ?? 0 }));
    return [
      { id: shortId(f.id), occurredAt: f.createdAt, type: 'shipped', lines: fLines, ...trackingFields },
      ...f.events.nodes.map((e) => ({
        id: shortId(e.id),
        occurredAt: e.happenedAt,
        type: EVENT_TYPES[e.status] ?? e.status.toLowerCase(),
        lines: fLines,
        ...trackingFields,
        ...(e.message && { description: e.message }),
      })),
    ];
  });

  const adjustments: OrderAdjustment[] = order.refunds.map((r) => ({
    id: shortId(r.id),
    type: 'refund',
    occurredAt: r.createdAt ?? order.updatedAt,
    status: 'completed',
    ...(r.refundLineItems.nodes.length && {
      lines: r.refundLineItems.nodes.map((rl) => ({ id: lineId(rl.lineItem.id), quantity: -rl.quantity })),
    }),
    amount: -amount(r.totalRefundedSet),
    ...(r.note && { description: r.note }),
  }));
  if (order.cancelledAt) {
    const removed = order.lineItems.nodes
      .map((l) => ({ id: lineId(l.id), quantity: -(l.quantity - l.currentQuantity - (refundedQty.get(l.id) ?? 0)) }))
      .filter((l) => l.quantity < 0);
    adjustments.push({
      id: `${shortId(order.id)}-cancellation`,
      type: 'cancellation',
      occurredAt: order.cancelledAt,
      status: 'completed',
      ...(removed.length && { lines: removed }),
    });
  }

  const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
  const itemsDiscount = lines.reduce((s, l) => s + l.discount, 0);
  return {
    id: shortId(order.id),
    ...(reference && { reference }),
    currency: order.presentmentCurrencyCode,
    createdAt: order.createdAt,
    permalinkUrl: order.statusPageUrl,
    lines,
    expectations,
    events,
    adjustments,
    totals: {
      subtotal,
      itemsDiscount,
      discount: amount(order.totalDiscountsSet) - itemsDiscount,
      shipping: amount(order.totalShippingPriceSet),
      tax: amount(order.totalTaxSet),
      total: amount(order.totalPriceSet),
    },
    ...(order.cancelledAt && { canceled: true }),
  };
}

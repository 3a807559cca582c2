/**
 * Webhook bodies: Shopify sends the REST representation of the resource
 * (https://shopify.dev/docs/api/admin-rest/latest/resources/order, `.../fulfillment`, `.../refund`),
 * whatever the app's GraphQL use. Money is a decimal string; times are the shop's wall time with
 * its offset (shop-time.ts), not UTC; `financial_status` is the lower-case display status
 * (`pending`, `authorized`, `paid`, ...); `fulfillment_status` is null until something ships,
 * then `partial` or `fulfilled`.
 */
import { fromMinorUnits } from '../../adapters/kit/money.js';
import { allocated } from './line-money.js';
import type { FulfillmentRecord, OrderLineRecord, OrderRecord, RefundRecord } from './orders.js';
import type { ShopData } from './shop-data.js';
import { shopTime } from './shop-time.js';

export const numeric = (id: string) => Number(id.split('/').at(-1));

/** Units still on the order: neither refunded nor removed (`LineItem.currentQuantity`). */
export const current = (l: OrderLineRecord) => l.quantity - l.refunded - l.removed;

/** `Order.displayFulfillmentStatus` from the lines shipped. */
export function fulfillmentStatus(order: OrderRecord): string {
  const physical = order.lines.filter((l) => l.requiresShipping && current(l) > 0);
  if (physical.length === 0) return order.fulfillments.length ? 'FULFILLED' : 'FULFILLMENT_NOT_REQUIRED';
  if (physical.every((l) => l.fulfilled >= current(l))) return 'FULFILLED';
  return physical.some((l) => l.fulfilled > 0) ? 'PARTIALLY_FULFILLED' : 'UNFULFILLED';
}

const restFulfillmentStatus: Record<string, string | null> = { FULFILLED: 'fulfilled', PARTIALLY_FULFILLED: 'partial' };

export function orderPayload(shop: ShopData, order: OrderRecord, financialStatus: string) {
  const money = (amount: number) => fromMinorUnits(amount, order.currency);
  const time = (iso: string | null) => iso && shopTime(iso, shop.timeZone);
  const lineDiscount = (l: OrderRecord['lines'][number]) => allocated(l.money, order.applications);
  const discounts = order.lines.reduce((s, l) => s + lineDiscount(l), 0);
  const tax = (shares: Array<{ title: string; ppm: number; amount: number }>) =>
    shares.map((t) => ({ title: t.title, rate: t.ppm / 1_000_000, price: money(t.amount) }));
  return {
    id: numeric(order.id),
    admin_graphql_api_id: order.id,
    name: order.name,
    email: order.email,
    created_at: time(order.createdAt),
    updated_at: time(order.updatedAt),
    processed_at: time(order.createdAt),
    cancelled_at: time(order.cancelledAt),
    cancel_reason: order.cancelReason?.toLowerCase() ?? null,
    currency: order.currency,
    presentment_currency: order.currency,
    taxes_included: order.taxesIncluded,
    subtotal_price: money(order.lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0) - discounts),
    total_discounts: money(discounts + (order.shippingLine ? allocated(order.shippingLine.money, order.applications) : 0)),
    total_tax: money(order.totals.tax),
    total_price: money(order.totals.total),
    financial_status: financialStatus.toLowerCase(),
    fulfillment_status: restFulfillmentStatus[fulfillmentStatus(order)] ?? null,
    payment_gateway_names: order.payment.gatewayNames,
    source_name: order.sourceName,
    cart_token: order.cartToken,
    tags: order.tags.join(', '),
    note_attributes: order.attributes.map((a) => ({ name: a.key, value: a.value })),
    discount_codes: order.discountCodes.map((code) => ({ code })),
    shipping_lines: order.shippingLine
      ? [
          {
            title: order.shippingLine.title,
            code: order.shippingLine.code,
            price: money(order.shippingLine.amount),
            discounted_price: money(order.shippingLine.amount - allocated(order.shippingLine.money, order.applications)),
            tax_lines: tax(order.shippingLine.money.tax),
          },
        ]
      : [],
    line_items: order.lines.map((l) => ({
      id: numeric(l.id),
      admin_graphql_api_id: l.id,
      variant_id: numeric(shop.ids.gid('ProductVariant', l.variantId)),
      product_id: numeric(shop.ids.gid('Product', l.productId)),
      title: l.title,
      sku: l.sku,
      quantity: l.quantity,
      current_quantity: current(l),
      fulfillable_quantity: current(l) - l.fulfilled,
      price: money(l.unitPrice),
      total_discount: money(allocated(l.money, order.applications, (a) => !a.orderLevel)),
      discount_allocations: l.money.allocations.map((a) => ({ amount: money(a.amount), discount_application_index: a.application })),
      tax_lines: tax(l.money.tax),
      properties: l.attributes.map((a) => ({ name: a.key, value: a.value })),
    })),
  };
}

export function fulfillmentPayload(shop: ShopData, order: OrderRecord, f: FulfillmentRecord) {
  return {
    id: numeric(f.id),
    admin_graphql_api_id: f.id,
    order_id: numeric(order.id),
    status: 'success',
    shipment_status: f.events.at(-1)?.status.toLowerCase() ?? null,
    created_at: shopTime(f.createdAt, shop.timeZone),
    updated_at: shopTime(f.updatedAt, shop.timeZone),
    tracking_company: f.tracking.company,
    tracking_number: f.tracking.number,
    tracking_url: f.tracking.url,
    line_items: f.lines.map((l) => ({ id: numeric(l.lineId), admin_graphql_api_id: l.lineId, quantity: l.quantity })),
  };
}

export function refundPayload(shop: ShopData, order: OrderRecord, r: RefundRecord) {
  return {
    id: numeric(r.id),
    admin_graphql_api_id: r.id,
    order_id: numeric(order.id),
    created_at: shopTime(r.createdAt, shop.timeZone),
    note: r.note,
    refund_line_items: r.lines.map((l) => ({
      line_item_id: numeric(l.lineId),
      quantity: l.quantity,
      subtotal: fromMinorUnits(l.amount, order.currency),
      total_tax: fromMinorUnits(l.tax, order.currency),
    })),
    transactions: r.amount > 0 ? [{ kind: 'refund', status: 'success', amount: fromMinorUnits(r.amount, order.currency) }] : [],
  };
}

/**
 * `wc/v3` order, order refund, order note and order fulfillment resources, and the Shipment
 * Tracking extension's tracking items, field by field as in woocommerce/woocommerce-rest-api-docs
 * source/includes/wp-api-v3/_orders.md ("Order properties", "Retrieve an order" JSON),
 * _order-refunds.md, _order-notes.md; plugins/woocommerce/includes/rest-api/Controllers/Version2/
 * class-wc-rest-orders-v2-controller.php (payment_url, is_editable, needs_payment,
 * needs_processing); the order fulfillments API (plugins/woocommerce/client/admin/docs/features/
 * fulfillments-rest-api.md: `_items`, `_tracking_number`, `_shipment_provider`, `_tracking_url`
 * meta); and the Shipment Tracking extension's REST API
 * (https://woocommerce.com/document/shipment-tracking/shipment-tracking-rest-api-create-tracking-item/).
 */
import type { Fulfillment, OrderNote, Refund, SimOrder } from '../model.js';
import type { WooStore } from '../store.js';
import { decimal, links, localDate, gmtDate } from './format.js';

function paymentUrl(store: WooStore, order: SimOrder): string {
  return `${store.homeUrl()}/checkout/order-pay/${order.id}/?pay_for_order=true&key=${order.orderKey}`;
}

export function orderShape(store: WooStore, order: SimOrder) {
  const dp = store.settings.decimals;
  const money = (n: number) => decimal(n, dp);
  const taxMoney = (n: number) => String(n / 10 ** dp);
  const totalTax = order.cartTax + order.shippingTax;
  // WC_Order::needs_payment: the payable statuses, checkout-draft added by the blocks' DraftOrders service.
  const needsPayment = ['pending', 'failed', 'checkout-draft'].includes(order.status) && order.total > 0;
  return {
    id: order.id,
    parent_id: 0,
    status: order.status,
    currency: order.currency,
    version: '10.2.0',
    prices_include_tax: store.settings.pricesIncludeTax,
    date_created: localDate(store, order.dateCreated),
    date_modified: localDate(store, order.dateModified),
    discount_total: money(order.discountTotal),
    discount_tax: money(order.couponLines.reduce((n, c) => n + c.discountTax, 0)),
    shipping_total: money(order.shippingTotal),
    shipping_tax: money(order.shippingTax),
    cart_tax: money(order.cartTax),
    total: money(order.total),
    total_tax: money(totalTax),
    customer_id: order.customerId,
    order_key: order.orderKey,
    billing: order.billing,
    shipping: order.shipping,
    payment_method: order.paymentMethod,
    payment_method_title: order.paymentMethodTitle,
    transaction_id: order.transactionId,
    customer_ip_address: '',
    customer_user_agent: '',
    created_via: order.createdVia,
    customer_note: order.customerNote,
    date_completed: localDate(store, order.dateCompleted),
    date_paid: localDate(store, order.datePaid),
    cart_hash: '',
    number: String(order.id),
    meta_data: order.meta.map((m) => ({ id: m.id, key: m.key, value: m.value })),
    line_items: order.lines.map((l) => ({
      id: l.id,
      name: l.name,
      product_id: l.productId,
      variation_id: l.variationId,
      quantity: l.quantity,
      tax_class: '',
      subtotal: money(l.subtotal),
      subtotal_tax: money(l.taxes.reduce((n, t) => n + t.subtotal, 0)),
      total: money(l.total),
      total_tax: money(l.taxes.reduce((n, t) => n + t.total, 0)),
      taxes: l.taxes.map((t) => ({ id: t.rateId, total: taxMoney(t.total), subtotal: taxMoney(t.subtotal) })),
      meta_data: l.meta.map((m) => ({ id: m.id, key: m.key, value: m.value, display_key: m.key, display_value: m.value })),
      sku: l.sku,
      // get_order_item_data: the line total (after discounts, before tax) over the quantity, a number.
      price: l.quantity ? l.total / 10 ** dp / l.quantity : 0,
      image: l.image ?? { id: '', src: '' },
      parent_name: l.parentName,
    })),
    tax_lines: order.taxLines.map((t) => ({
      id: t.id,
      rate_code: t.rateCode,
      rate_id: t.rateId,
      label: t.label,
      compound: t.compound,
      tax_total: money(t.taxTotal),
      shipping_tax_total: money(t.shippingTaxTotal),
      rate_percent: t.ratePercent,
      meta_data: [],
    })),
    shipping_lines: order.shippingLines.map((s) => ({
      id: s.id,
      method_title: s.methodTitle,
      method_id: s.methodId,
      instance_id: s.instanceId,
      total: money(s.total),
      total_tax: money(s.taxes.reduce((n, t) => n + t.total, 0)),
      taxes: s.taxes.map((t) => ({ id: t.rateId, total: taxMoney(t.total), subtotal: '' })),
      tax_status: 'taxable',
      meta_data: s.meta.map((m) => ({ id: m.id, key: m.key, value: m.value, display_key: m.key, display_value: m.value })),
    })),
    fee_lines: [],
    coupon_lines: order.couponLines.map((c) => ({
      id: c.id,
      code: c.code,
      discount: money(c.discount),
      discount_tax: money(c.discountTax),
      meta_data: [],
    })),
    refunds: order.refunds.map((r) => ({ id: r.id, reason: r.reason, total: money(-r.amount) })),
    payment_url: paymentUrl(store, order),
    is_editable: ['pending', 'on-hold', 'checkout-draft'].includes(order.status),
    needs_payment: needsPayment,
    needs_processing: order.lines.some((l) => !store.purchasable(l.variationId || l.productId)?.item.virtual),
    date_created_gmt: gmtDate(order.dateCreated),
    date_modified_gmt: gmtDate(order.dateModified),
    date_completed_gmt: gmtDate(order.dateCompleted),
    date_paid_gmt: gmtDate(order.datePaid),
    currency_symbol: store.settings.currencySymbol,
    _links: links(store.homeUrl(), `wc/v3/orders/${order.id}`, 'wc/v3/orders'),
  };
}

export function refundShape(store: WooStore, order: SimOrder, refund: Refund) {
  const dp = store.settings.decimals;
  const money = (n: number) => decimal(n, dp);
  return {
    id: refund.id,
    date_created: localDate(store, refund.dateCreated),
    date_created_gmt: gmtDate(refund.dateCreated),
    amount: money(refund.amount),
    reason: refund.reason,
    refunded_by: refund.refundedBy,
    refunded_payment: refund.refundedPayment,
    meta_data: [],
    line_items: refund.lines.map((l) => {
      const line = order.lines.find((o) => o.id === l.lineId)!;
      return {
        id: l.lineId + 100_000,
        name: line.name,
        product_id: line.productId,
        variation_id: line.variationId,
        quantity: -l.quantity,
        tax_class: '',
        subtotal: money(-l.total),
        subtotal_tax: money(0),
        total: money(-l.total),
        total_tax: money(0),
        taxes: [],
        meta_data: [{ id: 0, key: '_refunded_item_id', value: String(l.lineId) }],
        sku: line.sku,
        price: -line.price / 10 ** dp,
        refund_total: l.total / 10 ** dp,
      };
    }),
    shipping_lines: [],
    tax_lines: [],
    fee_lines: [],
    _links: links(store.homeUrl(), `wc/v3/orders/${order.id}/refunds/${refund.id}`, `wc/v3/orders/${order.id}/refunds`, {
      up: `wc/v3/orders/${order.id}`,
    }),
  };
}

export function noteShape(store: WooStore, order: SimOrder, note: OrderNote) {
  return {
    id: note.id,
    author: note.author,
    date_created: localDate(store, note.dateCreated),
    date_created_gmt: gmtDate(note.dateCreated),
    note: note.note,
    customer_note: note.customerNote,
    _links: links(store.homeUrl(), `wc/v3/orders/${order.id}/notes/${note.id}`, `wc/v3/orders/${order.id}/notes`, {
      up: `wc/v3/orders/${order.id}`,
    }),
  };
}

export function fulfillmentShape(order: SimOrder, f: Fulfillment) {
  let metaId = f.id * 10;
  const meta = (key: string, value: unknown) => ({ id: ++metaId, key, value });
  return {
    id: f.id,
    entity_type: 'WC_Order',
    entity_id: String(order.id),
    status: f.status,
    is_fulfilled: f.isFulfilled,
    date_updated: gmtDate(f.dateUpdated),
    date_deleted: null,
    meta_data: [
      meta('_items', f.items),
      ...(f.trackingNumber ? [meta('_tracking_number', f.trackingNumber)] : []),
      ...(f.provider ? [meta('_shipment_provider', f.provider)] : []),
      ...(f.trackingUrl ? [meta('_tracking_url', f.trackingUrl)] : []),
    ],
  };
}

/** Shipment Tracking extension (`wc-shipment-tracking/v3`): one item per tracking number, order-wide. */
export function shipmentTrackingShape(store: WooStore, order: SimOrder, f: Fulfillment) {
  const trackingId = `${f.id.toString(16).padStart(8, '0')}${order.id.toString(16).padStart(24, '0')}`;
  return {
    tracking_id: trackingId,
    tracking_provider: f.provider,
    tracking_link: f.trackingUrl,
    tracking_number: f.trackingNumber,
    date_shipped: f.dateUpdated.toISOString().slice(0, 10),
    _links: {
      self: [{ href: `${store.homeUrl()}/wp-json/wc-shipment-tracking/v3/orders/${order.id}/shipment-trackings/${trackingId}` }],
      collection: [{ href: `${store.homeUrl()}/wp-json/wc-shipment-tracking/v3/orders/${order.id}/shipment-trackings` }],
      up: [{ href: `${store.homeUrl()}/wp-json/wc/v3/orders/${order.id}` }],
    },
  };
}

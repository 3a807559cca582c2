/**
 * The reference store's own wire format: snake_case names of its own, money as decimal strings,
 * stock as a state word. Deliberately unlike the gateway's adapter contract, so the tenant file
 * (config/rest-demo/tenants/flowers.yaml) has to map every field.
 */
import type { CatalogProduct, CatalogVariant, Quote } from '../../adapters/contract.js';
import { fromMinorUnits } from '../../adapters/kit/money.js';
import { lineIdOf, type CartRecord } from './carts.js';
import type { StoreOrder } from './orders.js';

export const decimal = (amount: number, currency: string) => fromMinorUnits(amount, currency);

const STOCK_STATE: Record<CatalogVariant['availability']['status'], string> = {
  in_stock: 'in_stock',
  backorder: 'backorder',
  preorder: 'preorder',
  out_of_stock: 'sold_out',
  discontinued: 'retired',
};

function variantView(v: CatalogVariant) {
  return {
    variant_id: v.id,
    sku: v.sku ?? null,
    label: v.title,
    price: decimal(v.price.amount, v.price.currency),
    currency: v.price.currency,
    choices: Object.fromEntries(v.options.map((o) => [o.name, o.value])),
    stock: {
      state: STOCK_STATE[v.availability.status],
      on_hand: v.availability.quantity,
      ...(v.availability.availableOn && { release_date: v.availability.availableOn }),
    },
    ships: v.requiresShipping,
    pictures: (v.media ?? []).map((m) => ({ src: m.url, caption: m.altText ?? null })),
  };
}

export function itemView(p: CatalogProduct) {
  return {
    item_id: p.id,
    slug: p.handle ?? null,
    name: p.title,
    summary: p.description ?? null,
    link: p.url ?? null,
    kinds: p.categories.map((c) => ({ name: c.value, scheme: c.taxonomy ?? null })),
    labels: p.tags,
    brand: p.vendor ? { name: p.vendor.name, site: p.vendor.url ?? null } : null,
    stars: p.rating ? { avg: p.rating.value, of: p.rating.scaleMax, reviews: p.rating.count } : null,
    pictures: p.media.map((m) => ({ src: m.url, caption: m.altText ?? null })),
    axes: p.options.map((o) => ({ axis: o.name, choices: o.values })),
    default_variant: p.featuredVariantId,
    variants: p.variants.map(variantView),
  };
}

const REFUSAL: Record<string, string> = {
  invalid: 'unknown',
  expired: 'expired',
  already_applied: 'duplicate',
  combination_disallowed: 'not_combinable',
  user_not_logged_in: 'login_required',
  user_ineligible: 'not_for_you',
  not_applicable: 'conditions_not_met',
};

/** A cart as the store shows it: its own lines, coupons with per-line splits, one shipping group. */
export function cartView(cart: CartRecord) {
  const q: Quote = cart.quote;
  const money = (amount: number) => decimal(amount, q.currency);
  const group = q.fulfillment?.[0]?.groups[0];
  const discountOf = (lineRef: string) =>
    q.discounts.applied
      .flatMap((d) => d.allocations)
      .filter((a) => a.target.kind === 'line' && a.target.lineId === lineRef)
      .reduce((s, a) => s + a.amount, 0);
  const splits = (d: Quote['discounts']['applied'][number]) => ({
    lines: d.allocations.flatMap((a) => (a.target.kind === 'line' ? [{ line_ref: a.target.lineId, amount: money(a.amount) }] : [])),
    shipping: money(d.allocations.filter((a) => a.target.kind === 'shipping').reduce((s, a) => s + a.amount, 0)),
    order: money(d.allocations.filter((a) => a.target.kind === 'order').reduce((s, a) => s + a.amount, 0)),
  });
  const inputOf = new Map(cart.input.lines.map((l, i) => [lineIdOf(l, i), l]));
  return {
    cart_id: cart.id,
    currency: q.currency,
    reference: cart.reference ?? null,
    updated_at: new Date(cart.updatedAt).toISOString(),
    lines: q.lines.map((l) => ({
      /** The store's line id (the line API's); the client's own reference for whole-cart clients. */
      line_id: l.lineId,
      line_ref: inputOf.get(l.lineId)?.line_ref ?? l.lineId,
      variant_id: l.variantId,
      item_id: l.productId,
      name: l.title,
      variant_label: l.variantTitle ?? null,
      sku: l.sku ?? null,
      picture: l.imageUrl ?? null,
      unit_price: money(l.unitPrice),
      qty: l.quantity,
      ships: l.requiresShipping,
      ready: l.fulfillableOn,
      gross: money(l.subtotal),
      discount: money(discountOf(l.lineId)),
    })),
    problems: q.lineProblems.map((p) => ({
      line_id: p.lineId,
      variant_id: inputOf.get(p.lineId)?.variant_id ?? null,
      line_ref: p.lineId,
      problem: {
        not_found: 'unknown_item',
        invalid_quantity: 'bad_quantity',
        out_of_stock: 'sold_out',
        discontinued: 'retired',
        insufficient_stock: 'short',
      }[p.code],
      ...(p.code === 'insufficient_stock' && { available: p.available }),
    })),
    coupons: [
      ...q.discounts.applied.map((d, i) => ({
        code: d.code ?? null,
        state: 'applied',
        automatic: d.automatic,
        title: d.title,
        amount: money(d.amount),
        per: d.method === 'each' ? 'item' : 'cart',
        order: i + 1,
        split: splits(d),
      })),
      ...q.discounts.rejected.map((r) => ({
        code: r.code,
        position: r.index,
        state: 'refused',
        why: (r.reason && REFUSAL[r.reason]) ?? 'unknown',
        message: r.detail ?? null,
      })),
    ],
    // Collected at a shop: its options (free, ready within its hours) instead of shipping rates.
    pickup:
      group && cart.input.pickup_at
        ? {
            location_id: cart.input.pickup_at,
            options: group.options.map((o) => ({
              option_id: o.id,
              label: o.title,
              note: o.description ?? null,
              ready_from: o.earliest ?? null,
              price: money(o.amount),
            })),
            selected_option_id: group.selectedOptionId ?? null,
            unavailable: group.unavailableReason ?? null,
          }
        : null,
    shipping:
      group && !cart.input.pickup_at
        ? {
            rates: group.options.map((o) => ({
              rate_id: o.id,
              label: o.title,
              note: o.description ?? null,
              carrier: o.carrier ?? null,
              price: money(o.amount),
              arrives_from: o.earliest ?? null,
              arrives_by: o.latest ?? null,
            })),
            selected_rate_id: group.selectedOptionId ?? null,
            unavailable: group.unavailableReason ?? null,
          }
        : null,
    delivery_methods: q.availableMethods.map((m) => ({ kind: m.type, line_refs: m.lineIds, ready: m.fulfillableOn, note: m.description })),
    // A store whose prices include tax says so per line and in `totals.tax_included`; `tax` is what it adds.
    tax:
      q.totals.tax === null
        ? null
        : {
            lines: q.taxLines.map((t) => ({ name: t.title, amount: money(t.amount), included: t.included === true })),
            total: money(q.totals.tax),
          },
    totals: {
      items: money(q.totals.subtotal),
      item_discounts: money(q.totals.itemsDiscount),
      other_discounts: money(q.totals.discount),
      shipping: q.totals.shipping === null ? null : money(q.totals.shipping),
      tax: q.totals.tax === null ? null : money(q.totals.tax),
      tax_included: q.totals.includedTax === undefined ? null : money(q.totals.includedTax),
      grand_total: money(q.totals.total),
    },
  };
}

export function orderView(order: StoreOrder, storeUrl: string) {
  const money = (amount: number) => decimal(amount, order.currency);
  return {
    order_id: order.id,
    number: `#${order.id}`,
    reference: order.reference ?? null,
    cart_id: order.cartId,
    payment_id: order.paymentId ?? null,
    status: order.status,
    currency: order.currency,
    placed_at: order.placedAt,
    updated_at: order.updatedAt,
    page: `${storeUrl}/account/orders/${order.id}`,
    customer: order.customer,
    ship_to: order.shipTo ?? null,
    delivery: order.delivery ?? null,
    pickup_at: order.pickupAt ?? null,
    lines: order.lines.map((l) => ({
      line_id: l.lineId,
      line_ref: l.lineRef ?? null,
      variant_id: l.variantId,
      item_id: l.itemId,
      name: l.name,
      sku: l.sku ?? null,
      picture: l.picture ?? null,
      unit_price: money(l.unitPrice),
      qty: l.qty,
      ships: l.ships,
      qty_shipped: l.qtyShipped,
      qty_cancelled: l.qtyCancelled,
      gross: money(l.unitPrice * l.qty),
      discount: money(l.discount),
    })),
    shipments: order.shipments.map((s) => ({
      shipment_id: s.id,
      at: s.at,
      status: s.status,
      carrier: s.carrier,
      tracking_no: s.trackingNo,
      tracking_link: s.trackingLink,
      lines: s.lines.map((l) => ({ line_id: l.lineId, qty: l.qty })),
    })),
    refunds: order.refunds.map((r) => ({ refund_id: r.id, at: r.at, amount: money(r.amount), note: r.note ?? null })),
    cancelled_at: order.cancelledAt ?? null,
    payment: { kind: order.payment.kind, ref: order.payment.ref },
    totals: {
      items: money(order.totals.items),
      item_discounts: money(order.totals.itemDiscounts),
      other_discounts: money(order.totals.otherDiscounts),
      shipping: money(order.totals.shipping),
      tax: money(order.totals.tax),
      tax_included: money(order.totals.taxIncluded),
      grand_total: money(order.totals.grandTotal),
    },
    tax_lines: order.taxLines.map((t) => ({ name: t.name, amount: money(t.amount), included: t.included })),
  };
}

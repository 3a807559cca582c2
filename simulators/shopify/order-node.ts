/**
 * The Admin API's Order (2026-10), with each money field as its schema description defines it:
 * - `LineItem.originalUnitPriceSet` / `originalTotalSet`: before discounts ("doesn't include
 *   discounts"); on a shop whose prices include tax (`Order.taxesIncluded`: "When true, the
 *   subtotal and line item prices include tax amounts") they include the tax, as every line amount;
 * - `LineItem.totalDiscountSet`: "doesn't include order-level discounts";
 * - `LineItem.discountedTotalSet(withCodeDiscounts: false)`: "doesn't include order-level
 *   discounts. Code-based discounts aren't included by default" (changelog "lineItem.discountedTotalSet
 *   can optionally include code based discounts", 2024-04);
 * - `LineItem.discountedUnitPriceSet`: "doesn't include order-level or code-based discounts";
 *   `discountedUnitPriceAfterAllDiscountsSet` includes every discount;
 * - `LineItem.discountAllocations`: every allocation, order-level ones included;
 * - `LineItem.taxLines` / `ShippingLine.taxLines`: the line's share of each tax, "after discounts";
 * - `Order.cartDiscountAmountSet`: "only includes discounts applied to the entire order";
 *   `totalDiscountsSet` "both order and line level discounts".
 * Payment fields (`displayFinancialStatus`, `transactions`, `totalOutstandingSet`, ...) come from
 * payments.ts.
 */
import { connection, gid, money, moneyBag, type ConnectionArgs } from './graph.js';
import { mailingAddress } from './addresses.js';
import { allocated, type DiscountApplicationRecord, type PartMoney, type TaxShare } from './line-money.js';
import { current, fulfillmentStatus, numeric } from './order-payloads.js';
import type { OrderLineRecord, OrderRecord, Orders } from './orders.js';
import { canMarkAsPaid, capturable, received, refunded, type TransactionRecord } from './payments.js';
import type { ShopData } from './shop-data.js';

const orderLevel = (a: DiscountApplicationRecord) => a.orderLevel;
const lineLevel = (a: DiscountApplicationRecord) => !a.orderLevel;

/** `DiscountApplication` (interface): a code's or an automatic discount's application. */
function applicationNode(a: DiscountApplicationRecord, currency: string) {
  return {
    __typename: a.code ? 'DiscountCodeApplication' : 'AutomaticDiscountApplication',
    ...(a.code ? { code: a.code } : { title: a.title }),
    index: a.index,
    allocationMethod: a.orderLevel ? 'ACROSS' : 'EACH',
    targetSelection: a.orderLevel ? 'ALL' : 'ENTITLED',
    targetType: a.targetType,
    // The rule's own value is not kept; the amount it took is.
    value: { __typename: 'MoneyV2', ...money(a.amount, currency) },
  };
}

export function taxLineNodes(shares: TaxShare[], currency: string) {
  return shares.map((t) => ({
    title: t.title,
    priceSet: moneyBag(t.amount, currency),
    price: money(t.amount, currency).amount,
    rate: t.ppm / 1_000_000,
    ratePercentage: t.ppm / 10_000,
    channelLiable: null,
    source: null,
  }));
}

function allocationNodes(part: PartMoney, applications: DiscountApplicationRecord[], currency: string) {
  return part.allocations.map((a) => ({
    allocatedAmountSet: moneyBag(a.amount, currency),
    allocatedAmount: money(a.amount, currency),
    discountApplication: applicationNode(applications[a.application]!, currency),
  }));
}

function lineNode(shop: ShopData, order: OrderRecord, l: OrderLineRecord) {
  const bag = (amount: number) => moneyBag(amount, order.currency);
  const original = l.unitPrice * l.quantity;
  const discount = (keep: (a: DiscountApplicationRecord) => boolean) => allocated(l.money, order.applications, keep);
  return {
    __typename: 'LineItem',
    id: l.id,
    title: l.title,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    variantTitle: l.variantTitle,
    sku: l.sku,
    quantity: l.quantity,
    currentQuantity: current(l),
    unfulfilledQuantity: Math.max(0, current(l) - l.fulfilled),
    refundableQuantity: current(l),
    nonFulfillableQuantity: l.removed + l.refunded,
    requiresShipping: l.requiresShipping,
    taxable: true,
    customAttributes: l.attributes,
    variant: { id: shop.ids.gid('ProductVariant', l.variantId), sku: l.sku, title: l.variantTitle ?? 'Default Title' },
    product: { id: shop.ids.gid('Product', l.productId), title: l.title },
    image: null,
    originalUnitPriceSet: bag(l.unitPrice),
    originalTotalSet: bag(original),
    totalDiscountSet: bag(discount(lineLevel)),
    discountedTotalSet: ({ withCodeDiscounts }: { withCodeDiscounts?: boolean | null }) =>
      bag(original - discount((a) => lineLevel(a) && (!!withCodeDiscounts || !a.code))),
    discountedUnitPriceSet: bag(Math.round((original - discount((a) => lineLevel(a) && !a.code)) / l.quantity)),
    discountedUnitPriceAfterAllDiscountsSet: bag(Math.round((original - discount(() => true)) / l.quantity)),
    discountAllocations: allocationNodes(l.money, order.applications, order.currency),
    taxLines: ({ first }: { first?: number | null }) => taxLineNodes(l.money.tax, order.currency).slice(0, first ?? undefined),
  };
}

function transactionNode(t: TransactionRecord, order: OrderRecord) {
  const bag = (amount: number) => moneyBag(amount, order.currency);
  return {
    __typename: 'OrderTransaction',
    id: t.id,
    kind: t.kind,
    status: t.status,
    amountSet: bag(t.amount),
    gateway: t.gateway,
    formattedGateway: t.gateway === 'shopify_payments' ? 'Shopify Payments' : t.gateway,
    manualPaymentGateway: t.manual,
    createdAt: t.createdAt,
    processedAt: t.createdAt,
    test: true,
    errorCode: null,
    parentTransaction: t.parentId ? { id: t.parentId } : null,
  };
}

function shippingLineNode(order: OrderRecord) {
  const shipping = order.shippingLine;
  if (!shipping) return null;
  const bag = (amount: number) => moneyBag(amount, order.currency);
  const discounted = shipping.amount - allocated(shipping.money, order.applications);
  return {
    id: null,
    title: shipping.title,
    code: shipping.code,
    source: 'shopify',
    custom: false,
    isRemoved: false,
    originalPriceSet: bag(shipping.amount),
    discountedPriceSet: bag(discounted),
    currentDiscountedPriceSet: bag(discounted - order.refunds.reduce((s, r) => s + r.shipping, 0)),
    taxLines: taxLineNodes(shipping.money.tax, order.currency),
    discountAllocations: allocationNodes(shipping.money, order.applications, order.currency),
  };
}

/** The Admin API Order. */
export function orderNode(orders: Orders, shop: ShopData, order: OrderRecord, origin: string) {
  const bag = (amount: number) => moneyBag(amount, order.currency);
  const lineById = new Map(order.lines.map((l) => [l.id, l]));
  const node = (l: OrderLineRecord) => lineNode(shop, order, l);
  const lineDiscounts = order.lines.reduce((s, l) => s + allocated(l.money, order.applications), 0);
  const subtotal = order.lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0) - lineDiscounts;
  const shippingDiscount = order.shippingLine ? allocated(order.shippingLine.money, order.applications) : 0;
  const cartDiscount = order.lines.reduce((s, l) => s + allocated(l.money, order.applications, orderLevel), 0);
  const refundedMoney = refunded(order.payment);
  const got = received(order.payment);
  const shipping = shippingLineNode(order);
  return {
    __typename: 'Order',
    id: order.id,
    legacyResourceId: String(numeric(order.id)),
    name: order.name,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    processedAt: order.createdAt,
    email: order.email,
    note: null,
    sourceName: order.sourceName,
    cartToken: order.cartToken,
    tags: order.tags,
    test: true,
    closed: false,
    confirmed: true,
    currencyCode: order.currency,
    presentmentCurrencyCode: order.currency,
    customAttributes: order.attributes,
    discountCodes: order.discountCodes,
    discountCode: order.discountCodes[0] ?? null,
    discountApplications: (args: ConnectionArgs) =>
      connection(
        order.applications.map((a) => applicationNode(a, order.currency)),
        args,
      ),
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason,
    statusPageUrl: orders.statusPageUrl(order, origin),
    displayFinancialStatus: orders.financialStatus(order),
    displayFulfillmentStatus: fulfillmentStatus(order),
    paymentGatewayNames: order.payment.gatewayNames,
    transactions: ({ first }: { first?: number | null }) =>
      order.payment.transactions.slice(0, first ?? undefined).map((t) => transactionNode(t, order)),
    transactionsCount: { count: order.payment.transactions.length, precision: 'EXACT' },
    fullyPaid: got >= order.totals.total,
    unpaid: got === 0,
    canMarkAsPaid: canMarkAsPaid(order.payment, order.totals.total, !!order.cancelledAt),
    capturable: capturable(order.payment) > 0,
    totalCapturableSet: bag(capturable(order.payment)),
    totalReceivedSet: bag(got),
    netPaymentSet: bag(got - refundedMoney),
    // "The total amount not yet transacted for the order": what the buyer still owes.
    totalOutstandingSet: bag(order.cancelledAt ? 0 : Math.max(0, order.totals.total - got)),
    shippingAddress: order.shippingAddress && mailingAddress(gid('MailingAddress', numeric(order.id)), order.shippingAddress),
    lineItems: (args: ConnectionArgs) => connection(order.lines.map(node), args),
    shippingLine: shipping,
    shippingLines: (args: ConnectionArgs) => connection(shipping ? [shipping] : [], args),
    taxLines: order.taxLines.map((t) => ({
      title: t.title,
      priceSet: bag(t.amount),
      rate: null,
      ratePercentage: null,
      channelLiable: null,
    })),
    taxesIncluded: order.taxesIncluded,
    subtotalPriceSet: bag(subtotal),
    currentSubtotalPriceSet: bag(subtotal - order.refunds.reduce((s, r) => s + r.lines.reduce((t, l) => t + l.amount, 0), 0)),
    cartDiscountAmountSet: bag(cartDiscount),
    currentCartDiscountAmountSet: bag(cartDiscount),
    totalDiscountsSet: bag(lineDiscounts + shippingDiscount),
    currentTotalDiscountsSet: bag(lineDiscounts + shippingDiscount),
    totalShippingPriceSet: bag(order.shippingLine?.amount ?? 0),
    currentShippingPriceSet: bag(
      order.shippingLine ? order.shippingLine.amount - shippingDiscount - order.refunds.reduce((s, r) => s + r.shipping, 0) : 0,
    ),
    totalTaxSet: bag(order.totals.tax),
    currentTotalTaxSet: bag(order.totals.tax),
    totalPriceSet: bag(order.totals.total),
    originalTotalPriceSet: bag(order.totals.total),
    currentTotalPriceSet: bag(order.totals.total - refundedMoney),
    totalRefundedSet: bag(refundedMoney),
    fulfillments: ({ first }: { first?: number | null }) =>
      order.fulfillments.slice(0, first ?? undefined).map((f) => ({
        __typename: 'Fulfillment',
        id: f.id,
        legacyResourceId: String(numeric(f.id)),
        name: `${order.name}-F${order.fulfillments.indexOf(f) + 1}`,
        createdAt: f.createdAt,
        updatedAt: f.updatedAt,
        status: 'SUCCESS',
        displayStatus: f.displayStatus,
        requiresShipping: true,
        deliveredAt: f.events.find((e) => e.status === 'DELIVERED')?.happenedAt ?? null,
        inTransitAt: f.events.find((e) => e.status === 'IN_TRANSIT')?.happenedAt ?? null,
        estimatedDeliveryAt: null,
        totalQuantity: f.lines.reduce((s, l) => s + l.quantity, 0),
        trackingInfo: ({ first: n }: { first?: number | null }) =>
          (f.tracking.number || f.tracking.company ? [f.tracking] : []).slice(0, n ?? undefined),
        fulfillmentLineItems: (args: ConnectionArgs) =>
          connection(
            f.lines.map((l, i) => ({
              id: gid('FulfillmentLineItem', `${numeric(f.id)}${i}`),
              quantity: l.quantity,
              lineItem: node(lineById.get(l.lineId)!),
            })),
            args,
          ),
        events: (args: ConnectionArgs) =>
          connection(
            f.events.map((e) => ({ ...e, createdAt: e.happenedAt, estimatedDeliveryAt: null })),
            args,
          ),
      })),
    refunds: ({ first }: { first?: number | null }) =>
      order.refunds.slice(0, first ?? undefined).map((r) => ({
        __typename: 'Refund',
        id: r.id,
        legacyResourceId: String(numeric(r.id)),
        createdAt: r.createdAt,
        processedAt: r.createdAt,
        updatedAt: r.createdAt,
        note: r.note,
        totalRefundedSet: bag(r.amount),
        refundLineItems: (args: ConnectionArgs) =>
          connection(
            r.lines.map((l) => ({
              id: null,
              quantity: l.quantity,
              lineItem: node(lineById.get(l.lineId)!),
              priceSet: bag(lineById.get(l.lineId)!.unitPrice),
              subtotalSet: bag(l.amount),
              totalTaxSet: bag(l.tax),
              restockType: 'NO_RESTOCK',
              restocked: false,
            })),
            args,
          ),
      })),
    returns: (args: ConnectionArgs) => connection([], args),
  };
}

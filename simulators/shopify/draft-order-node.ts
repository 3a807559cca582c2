/**
 * The Admin DraftOrder and CalculatedDraftOrder (2026-10): totals, lines, shipping and tax as
 * their field descriptions define them. Line `discountedTotalSet` / `totalDiscountSet` leave out
 * discounts on the whole draft ("approximateDiscountedUnitPriceSet: The discountedTotal divided by
 * quantity ... doesn't include discounts applied to the entire draft order");
 * `lineItemsSubtotalPrice` is "excluding ... order discounts", `subtotalPriceSet` is after them;
 * `taxesIncluded` "Whether the line item prices include taxes" (then every amount includes it and
 * `totalPriceSet` adds nothing); `status` and `order` as the draft stands.
 */
import { connection, money, moneyBag, type ConnectionArgs } from './graph.js';
import { optionHandle } from './carts.js';
import type { DraftOrderInput, DraftOrders, DraftRecord } from './draft-orders.js';
import { allocated, quoteMoney } from './line-money.js';
import { taxLineNodes } from './order-node.js';
import type { ShopData } from './shop-data.js';

export function draftOrderNode(
  shop: ShopData,
  drafts: DraftOrders,
  draft: DraftRecord | { input: DraftOrderInput },
  order: (id: string) => unknown,
  invoiceUrl: (draft: DraftRecord) => string,
  now: number,
) {
  const { priced, request, data } = drafts.price(draft.input);
  const q = priced!;
  const split = quoteMoney(data!, request!, q, now);
  const bag = (amount: number) => moneyBag(amount, q.currency);
  const lineLevel = (lineId: string) => allocated(split.lines.get(lineId)!, split.applications, (a) => !a.orderLevel);
  const group = q.fulfillment?.[0]?.groups[0];
  const selected = group?.options.find((o) => o.id === group.selectedOptionId);
  const lineItems = q.lines.map((l) => ({
    id: l.lineId,
    uuid: l.lineId,
    title: l.title,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    variantTitle: l.variantTitle ?? null,
    sku: l.sku ?? null,
    quantity: l.quantity,
    requiresShipping: l.requiresShipping,
    taxable: true,
    custom: false,
    isGiftCard: false,
    variant: { id: shop.ids.gid('ProductVariant', l.variantId) },
    product: { id: shop.ids.gid('Product', l.productId) },
    originalUnitPriceSet: bag(l.unitPrice),
    originalTotalSet: bag(l.subtotal),
    discountedTotalSet: bag(l.subtotal - lineLevel(l.lineId)),
    approximateDiscountedUnitPriceSet: bag(Math.round((l.subtotal - lineLevel(l.lineId)) / l.quantity)),
    totalDiscountSet: bag(lineLevel(l.lineId)),
    taxLines: taxLineNodes(split.lines.get(l.lineId)!.tax, q.currency),
    customAttributes: [],
  }));
  const lineLevelTotal = q.lines.reduce((s, l) => s + lineLevel(l.lineId), 0);
  const record = 'id' in draft ? draft : undefined;
  return {
    ...(record && {
      id: record.id,
      name: record.name,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      completedAt: record.completedAt,
      invoiceSentAt: record.invoiceSentAt,
      status: record.status,
      invoiceUrl: invoiceUrl(record),
      order: record.orderId ? order(record.orderId) : null,
      tags: record.input.tags ?? [],
      customAttributes: record.input.customAttributes ?? [],
      email: record.input.email ?? null,
      ready: true,
      lineItems: (args: ConnectionArgs) => connection(lineItems, args),
    }),
    ...(!record && { lineItems }),
    currencyCode: q.currency,
    presentmentCurrencyCode: q.currency,
    taxesIncluded: shop.taxesIncluded,
    discountCodes: q.discounts.applied.flatMap((d) => (d.code ? [d.code.toUpperCase()] : [])),
    availableShippingRates: (group?.options ?? []).map((o) => ({
      handle: optionHandle(o.id),
      title: o.title,
      price: money(o.amount, q.currency),
    })),
    shippingLine: selected
      ? {
          title: selected.title,
          code: selected.id,
          shippingRateHandle: optionHandle(selected.id),
          custom: false,
          originalPriceSet: bag(selected.amount),
          discountedPriceSet: bag(selected.amount - allocated(split.shipping, split.applications)),
          taxLines: taxLineNodes(split.shipping.tax, q.currency),
        }
      : null,
    taxLines: q.taxLines.map((t) => ({ title: t.title, priceSet: bag(t.amount), rate: null, ratePercentage: null })),
    lineItemsSubtotalPrice: bag(q.totals.subtotal - lineLevelTotal),
    subtotalPriceSet: bag(q.totals.subtotal - q.totals.itemsDiscount),
    totalLineItemsPriceSet: bag(q.totals.subtotal),
    totalDiscountsSet: bag(q.totals.itemsDiscount + q.totals.discount),
    totalShippingPriceSet: bag(q.totals.shipping ?? 0),
    totalTaxSet: bag(q.totals.tax ?? 0),
    totalPriceSet: bag(q.totals.total),
    amountDueNowSet: bag(q.totals.total),
    amountDueLaterSet: bag(0),
    totalQuantityOfLineItems: q.lines.reduce((s, l) => s + l.quantity, 0),
    warnings: [],
    platformDiscounts: [],
    alerts: [],
  };
}

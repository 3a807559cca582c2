/**
 * Admin draft orders: priced like the checkout (same engine, lines, codes, automatic discounts,
 * the shipping rate chosen by handle), completed as paid into an order.
 */
import type { QuoteRequest } from '../../adapters/contract.js';
import type { StoreData } from '../../adapters/memory/model.js';
import { shopQuote } from './pricing.js';
import { postalAddress, type DeliveryAddressInput } from './addresses.js';
import { optionHandle, uniqueCodes, type Attribute } from './carts.js';
import { connection, gid, money, moneyBag, type ConnectionArgs } from './graph.js';
import type { OrderRecord, Orders } from './orders.js';
import type { ShopData } from './shop-data.js';

export interface DraftOrderInput {
  lineItems?: Array<{ variantId?: string | null; quantity: number; customAttributes?: Attribute[] | null }> | null;
  email?: string | null;
  shippingAddress?: DeliveryAddressInput | null;
  shippingLine?: { shippingRateHandle?: string | null; title?: string | null } | null;
  discountCodes?: string[] | null;
  customAttributes?: Attribute[] | null;
  tags?: string[] | null;
  note?: string | null;
  presentmentCurrencyCode?: string | null;
}

interface DraftRecord {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  input: DraftOrderInput;
  orderId: string | null;
}

type UserError = { field: string[] | null; message: string };

const MAX_TAG_LENGTH = 40;

/**
 * Draft orders take their lines whatever the stock: completing one does not check inventory (an
 * assumption, see docs/adapters/shopify.md), so sold-out lines are priced as if in stock.
 */
function ignoringStock(data: StoreData): StoreData {
  const variants = new Map(
    [...data.variants].map(([id, v]) => [
      id,
      v.variant.availability.status === 'out_of_stock' || (v.variant.availability.status === 'in_stock' && v.stock !== null)
        ? { ...v, stock: null, variant: { ...v.variant, availability: { available: true, status: 'in_stock' as const, quantity: null } } }
        : v,
    ]),
  );
  return { ...data, variants };
}

export class DraftOrders {
  private readonly drafts = new Map<string, DraftRecord>();
  private sequence = 0;

  constructor(
    private readonly shop: ShopData,
    private readonly orders: Orders,
    private readonly now: () => number,
  ) {}

  /** The engine's quote for a draft, or the userErrors Shopify would give. */
  price(input: DraftOrderInput): { errors: UserError[]; priced?: ReturnType<typeof shopQuote>; request?: QuoteRequest } {
    const market =
      this.shop.markets.find((m) => m.currency === (input.presentmentCurrencyCode ?? this.shop.shopCurrency)) ?? this.shop.markets[0]!;
    const data = ignoringStock(this.shop.store(market).data);
    const errors: UserError[] = [];
    const lines = (input.lineItems ?? []).map((item, i) => {
      const variantId = item.variantId ? this.shop.ids.demoId('ProductVariant', item.variantId) : undefined;
      if (!variantId)
        errors.push({ field: ['lineItems', String(i), 'variantId'], message: `Product with ID ${item.variantId} is no longer available.` });
      return { lineId: gid('DraftOrderLineItem', i + 1), variantId: variantId ?? '', quantity: item.quantity };
    });
    if (errors.length) return { errors };
    const rates = new Map(data.rates.map((r) => [optionHandle(r.id), r.id]));
    const wanted = input.shippingLine?.shippingRateHandle;
    const rate = wanted ? rates.get(wanted) : data.rates.find((r) => r.title === input.shippingLine?.title)?.id;
    if (input.shippingLine && !rate) return { errors: [{ field: ['shippingLine'], message: 'Shipping rate is not available.' }] };
    const physical = lines.filter((l) => data.variants.get(l.variantId)!.variant.requiresShipping);
    const request: QuoteRequest = {
      currency: market.currency,
      lines,
      ...(input.email && { buyer: { email: input.email } }),
      discountCodes: uniqueCodes(input.discountCodes ?? []),
      ...(input.shippingAddress &&
        physical.length && {
          fulfillment: {
            methods: [
              {
                methodId: 'shipping',
                type: 'shipping' as const,
                lineIds: physical.map((l) => l.lineId),
                destination: { address: postalAddress(input.shippingAddress) },
                ...(rate && { selectedOptions: { all: rate } }),
              },
            ],
            multiGroup: false,
          },
        }),
    };
    return { errors, priced: shopQuote(data, request, this.now(), this.shop.taxesIncluded), request };
  }

  create(input: DraftOrderInput): { draft?: DraftRecord; errors: UserError[] } {
    // Order tags are at most 40 characters (see docs/adapters/shopify.md: an assumption from merchant-facing sources).
    const long = (input.tags ?? []).find((t) => t.length > MAX_TAG_LENGTH);
    if (long) return { errors: [{ field: ['tags'], message: `Tags is too long (maximum is ${MAX_TAG_LENGTH} characters)` }] };
    const { errors } = this.price(input);
    if (errors.length) return { errors };
    const at = new Date(this.now()).toISOString();
    const n = ++this.sequence;
    const draft: DraftRecord = {
      id: gid('DraftOrder', 1_100_000_000_000 + n),
      name: `#D${n}`,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      input,
      orderId: null,
    };
    this.drafts.set(draft.id, draft);
    return { draft, errors: [] };
  }

  get(id: string): DraftRecord | undefined {
    return this.drafts.get(id);
  }

  all(): DraftRecord[] {
    return [...this.drafts.values()];
  }

  async complete(id: string, sourceName: string | null): Promise<{ draft?: DraftRecord; errors: UserError[] }> {
    const draft = this.drafts.get(id);
    if (!draft) return { errors: [{ field: ['id'], message: 'Draft order does not exist' }] };
    if (draft.completedAt) return { errors: [{ field: ['id'], message: 'This order has been paid' }] };
    const { priced, errors } = this.price(draft.input);
    if (!priced) return { errors };
    const shippable = priced.lines.some((l) => l.requiresShipping);
    if (shippable && priced.totals.shipping === null)
      return { errors: [{ field: ['shippingLine'], message: 'Shipping line is required' }] };
    const order: OrderRecord = await this.orders.create({
      quote: priced,
      email: draft.input.email ?? null,
      sourceName: sourceName ?? 'shopify_draft_order',
      tags: draft.input.tags ?? [],
      attributes: draft.input.customAttributes ?? [],
      lineAttributes: new Map(
        (draft.input.lineItems ?? []).map((item, i) => [gid('DraftOrderLineItem', i + 1), item.customAttributes ?? []]),
      ),
      shippingAddress: draft.input.shippingAddress ?? null,
    });
    draft.completedAt = order.createdAt;
    draft.updatedAt = order.createdAt;
    draft.orderId = order.id;
    return { draft, errors: [] };
  }

  /** The Admin DraftOrder (or CalculatedDraftOrder) totals, lines and shipping. */
  node(draft: DraftRecord | { input: DraftOrderInput }, order: (id: string) => unknown, invoiceUrl: (draft: DraftRecord) => string) {
    const { priced } = this.price(draft.input);
    const q = priced!;
    const bag = (amount: number) => moneyBag(amount, q.currency);
    const lineDiscount = (lineId: string) =>
      q.discounts.applied.reduce(
        (s, d) => s + d.allocations.filter((a) => a.target.kind === 'line' && a.target.lineId === lineId).reduce((t, a) => t + a.amount, 0),
        0,
      );
    const group = q.fulfillment?.[0]?.groups[0];
    const selected = group?.options.find((o) => o.id === group.selectedOptionId);
    const discounts = q.totals.itemsDiscount + q.totals.discount;
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
      variant: { id: this.shop.ids.gid('ProductVariant', l.variantId) },
      product: { id: this.shop.ids.gid('Product', l.productId) },
      originalUnitPriceSet: bag(l.unitPrice),
      originalTotalSet: bag(l.subtotal),
      discountedTotalSet: bag(l.subtotal - lineDiscount(l.lineId)),
      totalDiscountSet: bag(lineDiscount(l.lineId)),
      customAttributes: [],
    }));
    const record = 'id' in draft ? draft : undefined;
    return {
      ...(record && {
        id: record.id,
        name: record.name,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        completedAt: record.completedAt,
        status: record.completedAt ? 'COMPLETED' : 'OPEN',
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
      taxesIncluded: this.shop.taxesIncluded,
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
            discountedPriceSet: bag(selected.amount),
          }
        : null,
      taxLines: q.taxLines.map((t) => ({ title: t.title, priceSet: bag(t.amount), rate: null, ratePercentage: null })),
      subtotalPriceSet: bag(q.totals.subtotal - q.totals.itemsDiscount),
      totalLineItemsPriceSet: bag(q.totals.subtotal),
      totalDiscountsSet: bag(discounts),
      totalShippingPriceSet: bag(q.totals.shipping ?? 0),
      totalTaxSet: bag(q.totals.tax ?? 0),
      totalPriceSet: bag(q.totals.total),
      totalQuantityOfLineItems: q.lines.reduce((s, l) => s + l.quantity, 0),
      warnings: [],
      platformDiscounts: [],
      alerts: [],
    };
  }
}

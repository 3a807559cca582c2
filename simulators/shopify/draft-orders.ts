/**
 * Admin draft orders: priced like the checkout (same engine, lines, codes, automatic discounts,
 * the shipping rate chosen by handle), completed into an order, paid or with payment pending.
 *
 * From the 2026-10 Admin schema: `DraftOrder.status` is OPEN ("not been paid, and an invoice
 * hasn't been sent"), INVOICE_SENT or COMPLETED ("has been paid"); `DraftOrder.order` is "The order
 * that was created from the draft order"; `draftOrderComplete(paymentPending:)` "Whether the
 * payment is pending" (the order is then PENDING, not PAID); completing "reserves" inventory
 * ("the items will no longer be available for other customers to purchase") without checking it.
 */
import type { QuoteRequest } from '../../adapters/contract.js';
import type { StoreData } from '../../adapters/memory/model.js';
import { shopQuote } from './pricing.js';
import { postalAddress, type DeliveryAddressInput } from './addresses.js';
import { optionHandle, uniqueCodes, type Attribute } from './carts.js';
import { dateTime, gid } from './graph.js';
import { quoteMoney } from './line-money.js';
import type { OrderRecord, Orders } from './orders.js';
import { MANUAL_METHODS } from './payments.js';
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

type DraftStatus = 'OPEN' | 'INVOICE_SENT' | 'COMPLETED';

export interface DraftRecord {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  invoiceSentAt: string | null;
  status: DraftStatus;
  input: DraftOrderInput;
  orderId: string | null;
}

export interface CompleteOptions {
  sourceName?: string | null;
  paymentPending?: boolean | null;
  paymentGatewayId?: string | null;
}

/** The shop's manual payment gateways a draft can be completed with (`paymentGatewayId`). */
const PAYMENT_GATEWAYS = MANUAL_METHODS.map((name, i) => ({ id: gid('PaymentGateway', i + 1), name }));

export type UserError = { field: string[] | null; message: string };

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
  price(input: DraftOrderInput): { errors: UserError[]; priced?: ReturnType<typeof shopQuote>; request?: QuoteRequest; data?: StoreData } {
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
    return { errors, priced: shopQuote(data, request, this.now(), this.shop.taxesIncluded), request, data };
  }

  create(input: DraftOrderInput): { draft?: DraftRecord; errors: UserError[] } {
    // Order tags are at most 40 characters (see docs/adapters/shopify.md: an assumption from merchant-facing sources).
    const long = (input.tags ?? []).find((t) => t.length > MAX_TAG_LENGTH);
    if (long) return { errors: [{ field: ['tags'], message: `Tags is too long (maximum is ${MAX_TAG_LENGTH} characters)` }] };
    const { errors } = this.price(input);
    if (errors.length) return { errors };
    const at = dateTime(this.now());
    const n = ++this.sequence;
    const draft: DraftRecord = {
      id: gid('DraftOrder', 1_100_000_000_000 + n),
      name: `#D${n}`,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      invoiceSentAt: null,
      status: 'OPEN',
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

  /** `draftOrderInvoiceSend`: the invoice is emailed; the draft is INVOICE_SENT until completed. */
  sendInvoice(id: string): { draft?: DraftRecord; errors: UserError[] } {
    const draft = this.drafts.get(id);
    if (!draft) return { errors: [{ field: ['id'], message: 'Draft order does not exist' }] };
    if (draft.status === 'COMPLETED') return { errors: [{ field: ['id'], message: 'Draft order has been completed' }] };
    draft.invoiceSentAt = draft.updatedAt = dateTime(this.now());
    draft.status = 'INVOICE_SENT';
    return { draft, errors: [] };
  }

  /**
   * `draftOrderComplete`. A completed draft is not completed again: the call answers a user error
   * (its message is not documented; this one is assumed) and no second order; the order it made
   * is `DraftOrder.order`.
   */
  async complete(id: string, options: CompleteOptions = {}): Promise<{ draft?: DraftRecord; errors: UserError[] }> {
    const draft = this.drafts.get(id);
    if (!draft) return { errors: [{ field: ['id'], message: 'Draft order does not exist' }] };
    if (draft.status === 'COMPLETED') return { errors: [{ field: ['id'], message: 'This order has been paid' }] };
    const gateway = options.paymentGatewayId ? PAYMENT_GATEWAYS.find((g) => g.id === options.paymentGatewayId) : undefined;
    if (options.paymentGatewayId && !gateway) return { errors: [{ field: ['paymentGatewayId'], message: 'Payment gateway not found' }] };
    const { priced, errors, request, data } = this.price(draft.input);
    if (!priced) return { errors };
    const shippable = priced.lines.some((l) => l.requiresShipping);
    if (shippable && priced.totals.shipping === null)
      return { errors: [{ field: ['shippingLine'], message: 'Shipping line is required' }] };
    const paidWith = gateway?.name ?? 'manual';
    const order: OrderRecord = await this.orders.create({
      quote: priced,
      money: quoteMoney(data!, request!, priced, this.now()),
      email: draft.input.email ?? null,
      sourceName: options.sourceName ?? 'shopify_draft_order',
      tags: draft.input.tags ?? [],
      attributes: draft.input.customAttributes ?? [],
      lineAttributes: new Map(
        (draft.input.lineItems ?? []).map((item, i) => [gid('DraftOrderLineItem', i + 1), item.customAttributes ?? []]),
      ),
      shippingAddress: draft.input.shippingAddress ?? null,
      // Payment pending: no transaction, the order waits for the money. Else the merchant took it: a manual sale.
      payment: options.paymentPending
        ? { gateway: null, opening: [] }
        : {
            gateway: paidWith,
            opening: [{ kind: 'SALE', status: 'SUCCESS', amount: priced.totals.total, gateway: paidWith, manual: true, parentId: null }],
          },
    });
    for (const l of priced.lines) this.shop.commitStock(l.variantId, l.quantity);
    draft.completedAt = draft.updatedAt = order.createdAt;
    draft.status = 'COMPLETED';
    draft.orderId = order.id;
    return { draft, errors: [] };
  }
}

/**
 * Quotes on Medusa's own cart (Store API), the cart id being the session's handle: each quote
 * brings the cart to exactly the request's state (lines as a diff keyed by the gateway's line id
 * in item metadata, email and shipping address, promotion codes, the selected shipping option)
 * and maps what Medusa priced. Medusa's totals are unrounded major units; the total is rounded
 * once, as it is charged (money.ts), and the items discount takes what rounding leaves, so the
 * protocol's totals add up and equal what Medusa records on the order.
 * Every change to the cart drops its payment session in Medusa: payment is set up only when the
 * order is placed (orders.ts), after the last change.
 */
import type { AppliedDiscount, FulfillmentMethodQuote, LineProblem, PostalAddress, Quote, QuotedLine, QuoteRequest } from '../contract.js';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isUnknown, list, member, MedusaRefusal, type MedusaClient } from './client.js';
import { toMinor } from './money.js';
import type { MedusaAdjustment, MedusaCart, MedusaLineItem, MedusaShippingMethod, MedusaShippingOption } from './shapes.js';

export const CART_FIELDS =
  'id,currency_code,region_id,email,completed_at,metadata,total,subtotal,tax_total,discount_total,shipping_total,shipping_subtotal,' +
  'item_subtotal,*items,*items.adjustments,*items.variant,*items.product,*promotions,*shipping_methods,*shipping_methods.adjustments,' +
  '*shipping_address,*payment_collection';

/** One fulfillment group per method: Medusa prices one shipping method per shipping profile, the store has one. */
export const GROUP_KEY = 'default';

export type { MedusaCart } from './shapes.js';

export interface CartScope {
  regionId: string;
  salesChannelId?: string | undefined;
  currency: string;
}

const lineIdOf = (item: MedusaLineItem): string | undefined => {
  const id = item.metadata?.gateway_line_id;
  return typeof id === 'string' ? id : undefined;
};

export function toMedusaAddress(address: PostalAddress): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    first_name: address.firstName,
    last_name: address.lastName,
    address_1: address.streetAddress,
    address_2: address.extendedAddress,
    city: address.locality,
    province: address.region,
    postal_code: address.postalCode,
    country_code: address.country?.toLowerCase(),
    phone: address.phone,
  };
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The request's shipping destination: the first shipping method's address, else the location hint. */
function destinationOf(request: QuoteRequest): PostalAddress | undefined {
  for (const method of request.fulfillment?.methods ?? [])
    if (method.type === 'shipping' && method.destination && 'address' in method.destination) return method.destination.address;
  return undefined;
}

/** Why Medusa refused a line, in the contract's words. */
function lineProblem(lineId: string, error: MedusaRefusal): LineProblem {
  if (/inventory|stock/i.test(error.message)) return { lineId, code: 'out_of_stock' };
  if (/quantity/i.test(error.message)) return { lineId, code: 'invalid_quantity' };
  return { lineId, code: 'not_found' };
}

export interface QuoteOptions {
  /** Kept on the cart (merged into what it has). */
  metadata?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Shipping options per cart content and address, for this long: a merchant's price change shows within it. */
const OPTIONS_TTL_MS = 60_000;

/** How long a quote just made stands for the same request (checkoutUrl, placeOrder right after pricing). */
const RECENT_MS = 5_000;

/** What a request asks of the cart, without the cart it is kept in and the session's reference. */
function requestKey(cartId: string, request: QuoteRequest): string {
  const { handle: _handle, reference: _reference, ...rest } = request;
  return `${cartId}|${createHash('sha256').update(JSON.stringify(rest)).digest('base64url')}`;
}

export class MedusaCarts {
  private readonly options = new LRUCache<string, MedusaShippingOption[]>({ max: 5_000, ttl: OPTIONS_TTL_MS });
  private readonly recent = new LRUCache<string, { quote: Quote; cart: MedusaCart }>({ max: 1_000, ttl: RECENT_MS });

  constructor(
    private readonly client: MedusaClient,
    private readonly scope: CartScope,
  ) {}

  async retrieve(cartId: string, signal?: AbortSignal): Promise<MedusaCart | null> {
    try {
      const answer = await this.client.call('store', `/store/carts/${encodeURIComponent(cartId)}`, 'cart read', {
        query: { fields: CART_FIELDS },
        signal,
      });
      return member<MedusaCart>(answer, 'cart', 'cart');
    } catch (error) {
      if (isUnknown(error)) return null;
      throw error;
    }
  }

  /** A cart mutation with the cart it answers, read with CART_FIELDS (every Store API cart route takes `fields`). */
  private async mutate(path: string, what: string, method: 'POST' | 'DELETE', body: unknown, signal?: AbortSignal): Promise<MedusaCart> {
    const answer = await this.client.call('store', path, what, { method, query: { fields: CART_FIELDS }, body, signal });
    return member<MedusaCart>(answer, 'cart', what);
  }

  /**
   * A new cart in one call (POST /store/carts takes items, email, shipping address, metadata and
   * promotion codes); a refusal makes it again without items and codes, and sends those one by one
   * to say which line or code Medusa refused.
   */
  private async create(
    request: QuoteRequest,
    problems: LineProblem[],
    metadata: Record<string, unknown> | undefined,
    signal?: AbortSignal,
  ): Promise<{ cart: MedusaCart; codesApplied: boolean }> {
    const address = this.addressOf(request);
    const base = {
      region_id: this.scope.regionId,
      ...(this.scope.salesChannelId && { sales_channel_id: this.scope.salesChannelId }),
      ...(request.buyer?.email && { email: request.buyer.email }),
      ...(address && { shipping_address: address }),
      ...(metadata && { metadata }),
    };
    const items = request.lines.map((l) => ({ variant_id: l.variantId, quantity: l.quantity, metadata: { gateway_line_id: l.lineId } }));
    const codes = [...new Set(request.discountCodes)];
    const unique = codes.length === request.discountCodes.length && new Set(codes.map((c) => c.toUpperCase())).size === codes.length;
    try {
      const cart = await this.mutate(
        '/store/carts',
        'cart create',
        'POST',
        { ...base, items, ...(unique && codes.length && { promo_codes: codes }) },
        signal,
      );
      return { cart, codesApplied: unique };
    } catch (error) {
      if (!(error instanceof MedusaRefusal) || (items.length === 0 && !(unique && codes.length))) throw error;
    }
    let cart = await this.mutate('/store/carts', 'cart create', 'POST', base, signal);
    for (const item of items) cart = (await this.addLine(cart.id, item, problems, signal)) ?? cart;
    return { cart, codesApplied: false };
  }

  /** The cart after the line was added; undefined when Medusa refused it (a line problem). */
  private async addLine(
    cartId: string,
    item: { variant_id: string; quantity: number; metadata: Record<string, string> },
    problems: LineProblem[],
    signal?: AbortSignal,
  ): Promise<MedusaCart | undefined> {
    if (!Number.isInteger(item.quantity) || item.quantity < 1) {
      problems.push({ lineId: item.metadata.gateway_line_id!, code: 'invalid_quantity' });
      return undefined;
    }
    try {
      return await this.mutate(`/store/carts/${cartId}/line-items`, 'cart line add', 'POST', item, signal);
    } catch (error) {
      if (!(error instanceof MedusaRefusal)) throw error;
      problems.push(lineProblem(item.metadata.gateway_line_id!, error));
      return undefined;
    }
  }

  /** Brings the cart's lines to the request's (a diff by gateway line id); answers the cart as it then is. */
  private async syncLines(cart: MedusaCart, request: QuoteRequest, problems: LineProblem[], signal?: AbortSignal): Promise<MedusaCart> {
    const path = `/store/carts/${cart.id}/line-items`;
    const wanted = new Map(request.lines.map((l) => [l.lineId, l]));
    let now = cart;
    for (const item of cart.items ?? []) {
      const line = wanted.get(lineIdOf(item) ?? '');
      if (line && line.variantId === item.variant_id) {
        if (line.quantity !== item.quantity) {
          try {
            now = await this.mutate(`${path}/${item.id}`, 'cart line update', 'POST', { quantity: line.quantity }, signal);
          } catch (error) {
            if (!(error instanceof MedusaRefusal)) throw error;
            problems.push(lineProblem(line.lineId, error));
          }
        }
        wanted.delete(line.lineId);
      } else {
        // DELETE answers { id, object, deleted, parent: cart }.
        const answer = await this.client.call('store', `${path}/${item.id}`, 'cart line remove', {
          method: 'DELETE',
          query: { fields: CART_FIELDS },
          signal,
        });
        now = member<MedusaCart>(answer, 'parent', 'cart line remove');
      }
    }
    for (const line of wanted.values())
      now =
        (await this.addLine(
          cart.id,
          { variant_id: line.variantId, quantity: line.quantity, metadata: { gateway_line_id: line.lineId } },
          problems,
          signal,
        )) ?? now;
    return now;
  }

  private addressOf(request: QuoteRequest): Record<string, string> | undefined {
    const destination = destinationOf(request);
    return destination && toMedusaAddress({ firstName: request.buyer?.firstName, lastName: request.buyer?.lastName, ...destination });
  }

  private async syncBuyer(
    cart: MedusaCart,
    request: QuoteRequest,
    metadata: Record<string, unknown> | undefined,
    signal?: AbortSignal,
  ): Promise<MedusaCart> {
    const update: Record<string, unknown> = {};
    if (metadata && Object.entries(metadata).some(([k, v]) => cart.metadata?.[k] !== v))
      update.metadata = { ...cart.metadata, ...metadata };
    if (request.buyer?.email && request.buyer.email !== cart.email) update.email = request.buyer.email;
    const address = this.addressOf(request);
    if (address) {
      const current: Record<string, unknown> = { ...cart.shipping_address };
      if (Object.entries(address).some(([k, v]) => current[k] !== v)) update.shipping_address = address;
    }
    return Object.keys(update).length > 0 ? this.mutate(`/store/carts/${cart.id}`, 'cart update', 'POST', update, signal) : cart;
  }

  /**
   * Applies the submitted codes in order so every refusal carries Medusa's own reason: all new
   * codes in one call, and only when Medusa refuses that, one call per code to say which.
   */
  private async syncCodes(
    cart: MedusaCart,
    codes: string[],
    signal?: AbortSignal,
  ): Promise<{ cart: MedusaCart; rejected: Quote['discounts']['rejected'] }> {
    const path = `/store/carts/${cart.id}/promotions`;
    const applied = new Set<string>((cart.promotions ?? []).map((p) => String(p.code).toUpperCase()));
    const wanted = codes.map((c) => c.toUpperCase());
    const stale = [...applied].filter((code) => !wanted.includes(code));
    let now = cart;
    if (stale.length > 0) now = await this.mutate(path, 'cart promotion remove', 'DELETE', { promo_codes: stale }, signal);
    const rejected: Quote['discounts']['rejected'] = [];
    const seen = new Set<string>();
    const fresh: Array<{ code: string; index: number }> = [];
    for (const [index, code] of codes.entries()) {
      const key = code.toUpperCase();
      if (seen.has(key)) rejected.push({ code, index, reason: 'already_applied' });
      else if (!applied.has(key)) fresh.push({ code, index });
      seen.add(key);
    }
    if (fresh.length > 1) {
      try {
        now = await this.mutate(path, 'cart promotion add', 'POST', { promo_codes: fresh.map((f) => f.code) }, signal);
        return { cart: now, rejected };
      } catch (error) {
        if (!(error instanceof MedusaRefusal)) throw error;
      }
    }
    for (const { code, index } of fresh) {
      try {
        now = await this.mutate(path, 'cart promotion add', 'POST', { promo_codes: [code] }, signal);
      } catch (error) {
        if (!(error instanceof MedusaRefusal)) throw error;
        rejected.push({
          code,
          index,
          ...(/invalid|not found|does not exist/i.test(error.message) && { reason: 'invalid' as const }),
          detail: error.message,
        });
      }
    }
    rejected.sort((a, b) => a.index - b.index);
    return { cart: now, rejected };
  }

  /**
   * The cart's shipping options. Asked of Medusa again only when what they depend on changed (the
   * cart's items, address and region): an unchanged cart is priced from one cart read.
   */
  private async shippingOptions(cart: MedusaCart, signal?: AbortSignal): Promise<MedusaShippingOption[]> {
    const key = JSON.stringify([cart.id, cart.region_id, (cart.items ?? []).map((i) => [i.variant_id, i.quantity]), cart.shipping_address]);
    const known = this.options.get(key);
    if (known) return known;
    const answer = await this.client.call('store', '/store/shipping-options', 'shipping options', { query: { cart_id: cart.id }, signal });
    const options = list<MedusaShippingOption>(answer, 'shipping_options', 'shipping options').filter(
      (o) => o.insufficient_inventory !== true,
    );
    this.options.set(key, options);
    return options;
  }

  /** Brings Medusa's cart to the request's state and prices it. */
  async quote(request: QuoteRequest, options: QuoteOptions = {}): Promise<Quote> {
    return (await this.quoteCart(request, options)).quote;
  }

  /**
   * The quote with the Medusa cart it was priced from. Every mutation answers the cart (read with
   * CART_FIELDS), so no call reads it back: a new cart is one call, an unchanged one one read.
   */
  async quoteCart(request: QuoteRequest, options: QuoteOptions = {}): Promise<{ quote: Quote; cart: MedusaCart }> {
    const { signal, metadata } = options;
    const problems: LineProblem[] = [];
    let cart = request.handle ? await this.retrieve(request.handle, signal) : null;
    if (cart?.completed_at) cart = null;
    let codesApplied = false;
    if (cart) cart = await this.syncLines(cart, request, problems, signal);
    // The session's reference goes on a new cart at once, so a later checkoutUrl changes nothing.
    else {
      const kept =
        request.reference || metadata ? { ...(request.reference && { gateway_reference: request.reference }), ...metadata } : undefined;
      ({ cart, codesApplied } = await this.create(request, problems, kept, signal));
    }
    cart = await this.syncBuyer(cart, request, metadata, signal);
    let rejected: Quote['discounts']['rejected'] = [];
    if (!codesApplied) ({ cart, rejected } = await this.syncCodes(cart, request.discountCodes, signal));

    let fulfillment: FulfillmentMethodQuote[] | undefined;
    const shippingMethod = request.fulfillment?.methods.find((m) => m.type === 'shipping');
    if (request.fulfillment) {
      const offered = cart.shipping_address?.country_code && shippingMethod ? await this.shippingOptions(cart, signal) : [];
      const selected = shippingMethod?.selectedOptions?.[GROUP_KEY];
      const current = (cart.shipping_methods ?? [])[0]?.shipping_option_id as string | undefined;
      if (selected && offered.some((o) => o.id === selected) && current !== selected)
        cart = await this.mutate(
          `/store/carts/${cart.id}/shipping-methods`,
          'cart shipping method',
          'POST',
          { option_id: selected },
          signal,
        );
      fulfillment = this.fulfillmentOf(request, cart, offered, selected);
      fulfillment = this.fulfillmentOf(request, cart, undefined, undefined, fulfillment);
    }
    const quote = this.toQuote(request, cart, problems, rejected, fulfillment);
    this.recent.set(requestKey(cart.id, request), { quote, cart });
    return { quote, cart };
  }

  /**
   * The quote of this request in this cart made in the last seconds, with the cart, when the cart
   * carries `reference`: what checkoutUrl and placeOrder would make again without a change.
   */
  recentQuote(cartId: string, request: QuoteRequest, reference: string): { quote: Quote; cart: MedusaCart } | undefined {
    const recent = this.recent.get(requestKey(cartId, request));
    return recent?.cart.metadata?.gateway_reference === reference ? recent : undefined;
  }

  private fulfillmentOf(
    request: QuoteRequest,
    cart: MedusaCart,
    options: MedusaShippingOption[] | undefined,
    selected: string | undefined,
    earlier?: FulfillmentMethodQuote[],
  ): FulfillmentMethodQuote[] {
    const physical = new Set((cart.items ?? []).filter((i) => i.requires_shipping !== false).map(lineIdOf));
    return request.fulfillment!.methods.map((method, n) => {
      const lineIds = method.lineIds.filter((id) => physical.has(id));
      if (earlier) {
        // After the selection was made: what Medusa now holds decides the selected option.
        const chosen = (cart.shipping_methods ?? [])[0]?.shipping_option_id as string | undefined;
        const group = earlier[n]!.groups[0]!;
        const { selectedOptionId: _, ...rest } = group;
        return {
          ...earlier[n]!,
          groups: [{ ...rest, ...(chosen && group.options.some((o) => o.id === chosen) && { selectedOptionId: chosen }) }],
        };
      }
      if (method.type !== 'shipping')
        return {
          methodId: method.methodId,
          type: method.type,
          lineIds,
          groups: [{ key: GROUP_KEY, lineIds, options: [], unavailableReason: 'This store does not offer pickup.' }],
        };
      const priced = (options ?? [])
        .map((o) => ({
          id: o.id,
          title: o.name,
          ...(o.type?.description && { description: o.type.description }),
          amount: toMinor(o.amount ?? o.calculated_price?.calculated_amount, this.scope.currency),
        }))
        .sort((a, b) => a.amount - b.amount);
      const hasAddress = Boolean(cart.shipping_address?.country_code);
      return {
        methodId: method.methodId,
        type: method.type,
        lineIds,
        groups: [
          {
            key: GROUP_KEY,
            lineIds,
            options: priced,
            ...(hasAddress && priced.length === 0 && { unavailableReason: 'The store does not ship to this address.' }),
            ...(selected && priced.some((o) => o.id === selected) && { selectedOptionId: selected }),
          },
        ],
      };
    });
  }

  toQuote(
    request: QuoteRequest,
    cart: MedusaCart,
    lineProblems: LineProblem[],
    rejected: Quote['discounts']['rejected'],
    fulfillment?: FulfillmentMethodQuote[],
  ): Quote {
    const currency = String(cart.currency_code).toUpperCase();
    const minor = (amount: unknown) => toMinor(amount ?? 0, currency);
    const order = new Map(request.lines.map((l, n) => [l.lineId, n]));
    const items = [...(cart.items ?? [])]
      .filter((i) => order.has(lineIdOf(i) ?? ''))
      .sort((a, b) => order.get(lineIdOf(a)!)! - order.get(lineIdOf(b)!)!);
    const lines: QuotedLine[] = items.map((item) => {
      const unitPrice = minor(item.unit_price);
      return {
        lineId: lineIdOf(item)!,
        variantId: item.variant_id,
        productId: item.product_id,
        title: item.product_title ?? item.title ?? '',
        ...(item.variant_title &&
          item.variant_title !== 'Default variant' &&
          item.variant_title !== item.product_title && { variantTitle: item.variant_title }),
        ...(item.variant_sku && { sku: item.variant_sku }),
        unitPrice,
        quantity: item.quantity,
        ...(item.thumbnail && { imageUrl: item.thumbnail }),
        requiresShipping: item.requires_shipping !== false,
        fulfillableOn: 'now',
        subtotal: unitPrice * item.quantity,
      };
    });
    const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
    const shippingMethods: MedusaShippingMethod[] = cart.shipping_methods ?? [];
    const shipping =
      shippingMethods.length > 0
        ? minor(cart.shipping_subtotal)
        : request.fulfillment && lines.every((l) => !l.requiresShipping)
          ? 0
          : null;
    const tax = cart.shipping_address?.country_code ? minor(cart.tax_total) : null;
    const total = minor(cart.total);

    // Allocations per code, each rounded; the shipping ones are `discount`, the rest `itemsDiscount`.
    const byCode = new Map<string, AppliedDiscount>();
    const allocate = (adjustment: MedusaAdjustment, target: AppliedDiscount['allocations'][number]['target']) => {
      const code = String(adjustment.code ?? adjustment.promotion_id);
      let discount = byCode.get(code.toUpperCase());
      if (!discount) {
        const submitted = request.discountCodes.find((c) => c.toUpperCase() === code.toUpperCase());
        discount = {
          ...(submitted && { code: submitted }),
          title: adjustment.description ?? code,
          amount: 0,
          automatic: !submitted,
          method: 'across',
          priority: byCode.size + 1,
          allocations: [],
        };
        byCode.set(code.toUpperCase(), discount);
      }
      const amount = minor(adjustment.amount);
      discount.amount += amount;
      discount.allocations.push({ target, amount });
    };
    for (const item of items) for (const a of item.adjustments ?? []) allocate(a, { kind: 'line', lineId: lineIdOf(item)! });
    const methodId = request.fulfillment?.methods.find((m) => m.type === 'shipping')?.methodId;
    for (const method of shippingMethods)
      for (const a of method.adjustments ?? [])
        allocate(a, methodId ? { kind: 'shipping', methodId, groupKey: GROUP_KEY } : { kind: 'order' });
    const applied = [...byCode.values()].filter((d) => d.amount > 0);
    const discount = applied
      .flatMap((d) => d.allocations)
      .filter((a) => a.target.kind !== 'line')
      .reduce((s, a) => s + a.amount, 0);
    // What Medusa charges decides; rounding is absorbed by the items discount and its largest allocation.
    const itemsDiscount = subtotal - discount + (shipping ?? 0) + (tax ?? 0) - total;
    const allocated = applied
      .flatMap((d) => d.allocations)
      .filter((a) => a.target.kind === 'line')
      .reduce((s, a) => s + a.amount, 0);
    const drift = itemsDiscount - allocated;
    if (drift !== 0) {
      const largest = applied
        .flatMap((d) => d.allocations.filter((a) => a.target.kind === 'line').map((a) => ({ d, a })))
        .sort((x, y) => y.a.amount - x.a.amount)[0];
      if (largest) {
        largest.a.amount += drift;
        largest.d.amount += drift;
      }
    }
    return {
      handle: cart.id,
      currency,
      lines,
      lineProblems,
      discounts: { applied, rejected },
      ...(fulfillment && { fulfillment }),
      availableMethods: lines.some((l) => l.requiresShipping)
        ? [
            {
              type: 'shipping',
              lineIds: lines.filter((l) => l.requiresShipping).map((l) => l.lineId),
              fulfillableOn: 'now',
              description: 'Ships from the store.',
            },
          ]
        : [],
      taxLines: tax ? [{ title: 'Tax', amount: tax }] : [],
      totals: { subtotal, itemsDiscount, discount, shipping, tax, total },
    };
  }
}

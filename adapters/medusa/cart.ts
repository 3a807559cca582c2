/**
 * Quotes on Medusa's own cart (Store API), the cart id being the session's handle: each quote
 * brings the cart to exactly the request's state (lines as a diff keyed by the gateway's line id
 * in item metadata, email and shipping address, promotion codes, a shipping method per shipping
 * profile: shipping.ts) and maps what Medusa priced (quote.ts).
 * Every change to the cart drops its payment session in Medusa: payment is set up only when the
 * order is placed (orders.ts), after the last change.
 */
import type { LineProblem, PostalAddress, Quote, QuoteRequest } from '../contract.js';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isUnknown, list, member, MedusaRefusal, type MedusaClient } from './client.js';
import { lineIdOf, toQuote } from './quote.js';
import type { MedusaCart } from './shapes.js';
import { MedusaShipping, optionsToSet, type ShippingPlans } from './shipping.js';

const CART_FIELDS =
  'id,currency_code,region_id,email,completed_at,metadata,total,subtotal,tax_total,discount_total,shipping_total,shipping_subtotal,' +
  'item_subtotal,*items,items.subtotal,items.tax_total,*items.tax_lines,*items.adjustments,*items.variant,*items.product,' +
  '*promotions,*shipping_methods,shipping_methods.tax_total,*shipping_methods.tax_lines,*shipping_methods.adjustments,' +
  '*shipping_address,*payment_collection';

export type { MedusaCart } from './shapes.js';

export interface CartScope {
  regionId: string;
  salesChannelId?: string | undefined;
  currency: string;
}

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

/** How long a quote just made stands for the same request (checkoutUrl, placeOrder right after pricing). */
const RECENT_MS = 5_000;

/** What a request asks of the cart, without the cart it is kept in and the session's reference. */
function requestKey(cartId: string, request: QuoteRequest): string {
  const { handle: _handle, reference: _reference, ...rest } = request;
  return `${cartId}|${createHash('sha256').update(JSON.stringify(rest)).digest('base64url')}`;
}

export class MedusaCarts {
  private readonly recent = new LRUCache<string, { quote: Quote; cart: MedusaCart }>({ max: 1_000, ttl: RECENT_MS });
  private readonly shipping: MedusaShipping;

  constructor(
    private readonly client: MedusaClient,
    private readonly scope: CartScope,
  ) {
    this.shipping = new MedusaShipping(client, scope.currency);
  }

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
   * codes in one call, and only when Medusa refuses that, one call per code to say which. Codes
   * match whatever their case, as the contract has it; Medusa matches them exactly
   * (get-promotion-codes-to-apply: `The promotion code X is invalid`), so a code it refuses is
   * tried again as the store spells it (canonicalCode).
   */
  private async syncCodes(
    cart: MedusaCart,
    codes: string[],
    signal?: AbortSignal,
  ): Promise<{ cart: MedusaCart; rejected: Quote['discounts']['rejected'] }> {
    const path = `/store/carts/${cart.id}/promotions`;
    const held = (cart.promotions ?? []).map((p) => String(p.code));
    const applied = new Set(held.map((c) => c.toUpperCase()));
    const wanted = new Set(codes.map((c) => c.toUpperCase()));
    // Removed as Medusa spells them: it matches codes exactly.
    const stale = held.filter((code) => !wanted.has(code.toUpperCase()));
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
      const added = await this.addCode(now, code, signal);
      if ('cart' in added) now = added.cart;
      else rejected.push({ code, index, ...(added.invalid && { reason: 'invalid' as const }), detail: added.refused });
    }
    rejected.sort((a, b) => a.index - b.index);
    return { cart: now, rejected };
  }

  /** One code onto the cart, as submitted, else as the store spells it; or Medusa's refusal. */
  private async addCode(
    cart: MedusaCart,
    code: string,
    signal?: AbortSignal,
  ): Promise<{ cart: MedusaCart } | { refused: string; invalid: boolean }> {
    const add = (promo: string) =>
      this.mutate(`/store/carts/${cart.id}/promotions`, 'cart promotion add', 'POST', { promo_codes: [promo] }, signal);
    let refusal: MedusaRefusal;
    try {
      return { cart: await add(code) };
    } catch (error) {
      if (!(error instanceof MedusaRefusal)) throw error;
      refusal = error;
    }
    const invalid = /invalid|not found|does not exist/i.test(refusal.message);
    const canonical = invalid ? await this.canonicalCode(code, signal) : undefined;
    if (canonical === undefined || canonical === code) return { refused: refusal.message, invalid };
    try {
      return { cart: await add(canonical) };
    } catch (error) {
      if (!(error instanceof MedusaRefusal)) throw error;
      return { refused: error.message, invalid: /invalid|not found|does not exist/i.test(error.message) };
    }
  }

  /** The store's spelling of a code that differs only in case (Admin API promotion search), if there is one. */
  private async canonicalCode(code: string, signal?: AbortSignal): Promise<string | undefined> {
    const answer = await this.client.call('admin', '/admin/promotions', 'promotion lookup', {
      query: { q: code, fields: 'id,code', limit: 20 },
      signal,
    });
    return list<{ code?: string | null }>(answer, 'promotions', 'promotion lookup').find(
      (p) => typeof p.code === 'string' && p.code.toUpperCase() === code.toUpperCase(),
    )?.code as string | undefined;
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
    const shipped = request.fulfillment ? await this.syncShipping(cart, request, signal) : undefined;
    if (shipped) cart = shipped.cart;
    const quote = toQuote(request, cart, { lineProblems: problems, rejected, ...(shipped && { shipping: shipped.plans }) });
    this.recent.set(requestKey(cart.id, request), { quote, cart });
    return { quote, cart };
  }

  /**
   * The request's shipping on the cart: the shipped lines grouped by shipping profile with their
   * options (once an address is known), each group's selected option set on the cart.
   */
  private async syncShipping(
    cart: MedusaCart,
    request: QuoteRequest,
    signal?: AbortSignal,
  ): Promise<{ cart: MedusaCart; plans: ShippingPlans }> {
    const shipped = new Map((cart.items ?? []).filter((i) => i.requires_shipping !== false).map((i) => [lineIdOf(i), i.product_id]));
    const methods = request.fulfillment!.methods.filter((m) => m.type === 'shipping');
    const hasAddress = Boolean(cart.shipping_address?.country_code);
    const offered = hasAddress && methods.length > 0 ? await this.shipping.offered(cart, signal) : [];
    const profiles =
      shipped.size > 0 && methods.length > 0 ? await this.shipping.profilesOf([...shipped.values()], signal) : new Map<string, string>();
    const plans: ShippingPlans = new Map();
    for (const method of methods) {
      const lines = method.lineIds.flatMap((lineId) => (shipped.has(lineId) ? [{ lineId, productId: shipped.get(lineId)! }] : []));
      const groups = this.shipping.plan(lines, profiles, offered, !request.fulfillment!.multiGroup);
      for (const optionId of optionsToSet(cart, groups, method.selectedOptions))
        cart = await this.mutate(
          `/store/carts/${cart.id}/shipping-methods`,
          'cart shipping method',
          'POST',
          { option_id: optionId },
          signal,
        );
      plans.set(method.methodId, groups);
    }
    return { cart, plans };
  }

  /**
   * The quote of this request in this cart made in the last seconds, with the cart, when the cart
   * carries `reference`: what checkoutUrl and placeOrder would make again without a change.
   */
  recentQuote(cartId: string, request: QuoteRequest, reference: string): { quote: Quote; cart: MedusaCart } | undefined {
    const recent = this.recent.get(requestKey(cartId, request));
    return recent?.cart.metadata?.gateway_reference === reference ? recent : undefined;
  }
}

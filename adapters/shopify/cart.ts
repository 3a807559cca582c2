/**
 * Carts: a quote is priced in the session's Shopify cart (cart-sync.ts keeps it at exactly the
 * state the request asks for), read with carrier-calculated rates when the shop uses them, mapped
 * to the contract's quote (quote-map.ts) and completed with Shopify's tax (tax.ts). The checkout
 * URL and reference of every cart seen are kept, so a checkout page needs no call of its own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Quote, QuoteRequest, RequestContext } from '../contract.js';
import { BackendError } from '../contract.js';
import {
  cartGone,
  createInput,
  excessLines,
  lastCart,
  lineInput,
  nextHandle,
  optionInputs,
  readHandle,
  refusedLineIndices,
  syncVariables,
  wantedCart,
  writeHandle,
  type CartHandle,
  type SentLine,
  type WantedCart,
} from './cart-sync.js';
import type { SfCart, SfCartPayload } from './cart-types.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { REFERENCE_ATTRIBUTE } from './ids.js';
import { money, type MoneyV2 } from './money.js';
import { toQuote } from './quote-map.js';
import type { ShopifyConfig } from './settings.js';
import type { Storefront, Storefronts } from './storefront.js';
import { draftFor, taxKey, withTax, type TaxResult } from './tax.js';

/** Carts whose delivery groups were read with carrier-calculated rates. */
const carrierRead = new WeakSet<SfCart>();
type SyncPayloads = Partial<Record<(typeof Q.SYNC_STEPS)[number], SfCartPayload | null>>;
/** A cart as a document asking for the carrier-rate groups answers it. */
type CarrierCart = SfCart & { carrierGroups?: SfCart['deliveryGroups'] };

/** Reads of carrier-calculated rates per quote, 100 + 200 + 400 ms apart at most. */
const CARRIER_RATE_READS = 4;
const CARRIER_RATE_WAIT_MS = 100;

export class ShopifyCarts {
  /** Checkout URL and reference attribute of carts seen in answers (quote then checkoutUrl: one call). */
  private readonly seen = new LRUCache<string, { url: string; reference?: string }>({ max: 10_000 });

  constructor(
    private readonly client: ShopifyClient,
    private readonly storefronts: Storefronts,
    private readonly settings: Pick<ShopifyConfig, 'carrier_rates'>,
  ) {}

  /** The checkout URL and reference attribute of a cart seen in an answer, if any. */
  checkoutPage(cartId: string): { url: string; reference?: string } | undefined {
    return this.seen.get(cartId);
  }

  async quote(request: QuoteRequest, signal?: AbortSignal, context?: RequestContext): Promise<Quote> {
    return (await this.priceCart(request, signal, context)).quote;
  }

  /** The quote, with the Shopify cart it was priced in and the draft order that would charge it. */
  async priceCart(request: QuoteRequest, signal?: AbortSignal, context?: RequestContext) {
    const market = this.storefronts.market(request.currency, request.location?.country);
    const wanted = wantedCart(request, market.country);
    const sf = this.storefronts.calls(market, context, signal);
    const old = readHandle(request.handle);
    const problems = new Map<string, SentLine['problem']>(
      Object.entries(old?.lines ?? {}).flatMap(([lineId, sent]) =>
        sent.problem === 'not_found' && wanted.lines.some((l) => l.lineId === lineId && l.variantId === sent.variantId)
          ? [[lineId, 'not_found' as const]]
          : [],
      ),
    );
    const sendable = { ...wanted, lines: wanted.lines.filter((l) => !problems.has(l.lineId)) };
    const carrier = this.settings.carrier_rates !== false && !!wanted.address;
    let cart = old ? await this.sync(old, sendable, problems, sf, carrier) : null;
    cart ??= await this.create(sendable, problems, sf, carrier);
    cart = await this.trimExcess(cart, sendable, sf, carrier);
    let ratesPending = false;
    if (carrier && cart.deliveryGroups.nodes.length) ({ cart, ratesPending } = await this.withCarrierRates(cart, sf, signal));
    const handle = nextHandle(cart, wanted, problems);
    this.remember(cart);
    const quote = toQuote(request, handle, cart, ratesPending);
    const draft = draftFor(cart, quote, wanted.address, wanted.buyer.email);
    if (draft) {
      const key = taxKey({ draft, prices: cart.lines.nodes.map((l) => l.cost.subtotalAmount) });
      handle.tax = old?.tax?.key === key ? old.tax : await this.calculateTax(draft, key, signal);
    }
    return { quote: { ...withTax(quote, handle.tax), handle: writeHandle(handle) }, draft };
  }

  private async calculateTax(
    draft: NonNullable<ReturnType<typeof draftFor>>,
    key: string,
    signal?: AbortSignal,
  ): Promise<TaxResult | undefined> {
    type Bag = { presentmentMoney: MoneyV2 };
    type Calculated = {
      draftOrderCalculate: { calculatedDraftOrder: { taxesIncluded: boolean; taxLines: Array<{ title: string; priceSet: Bag }> } | null };
    };
    const { draftOrderCalculate } = await this.client.admin<Calculated>(Q.DRAFT_ORDER_CALCULATE, { input: draft }, signal);
    const calculated = draftOrderCalculate.calculatedDraftOrder;
    return calculated
      ? {
          key,
          lines: calculated.taxLines
            .map((t) => ({ title: t.title, amount: money(t.priceSet.presentmentMoney) }))
            .filter((t) => t.amount !== 0),
          ...(calculated.taxesIncluded && { included: true }),
        }
      : undefined;
  }

  /** Keeps the checkout URL and reference attribute of a cart seen in an answer. */
  remember(cart: Pick<SfCart, 'id' | 'checkoutUrl' | 'attributes'>) {
    const reference = cart.attributes.find((a) => a.key === REFERENCE_ATTRIBUTE)?.value ?? undefined;
    this.seen.set(cart.id, { url: cart.checkoutUrl, ...(reference && { reference }) });
  }

  /**
   * Lines Shopify refused for their merchandise become out_of_stock when the variant exists and is
   * not for sale, else not_found (MERCHANDISE_NOT_APPLICABLE says neither); the rest go again.
   */
  private async refuse(
    lines: WantedCart['lines'],
    errors: SfCartPayload['userErrors'],
    problems: Map<string, SentLine['problem']>,
    sf: Storefront,
  ) {
    const refused = refusedLineIndices(errors).flatMap((i) => (lines[i] ? [lines[i]] : []));
    if (refused.length) {
      type Found = { nodes: Array<{ id?: string; availableForSale?: boolean } | null> };
      const { nodes } = await sf<Found>(Q.VARIANT_AVAILABILITY, { ids: [...new Set(refused.map((l) => l.variantId))] });
      const exists = new Set(nodes.flatMap((n) => (n?.id ? [n.id] : [])));
      for (const line of refused) problems.set(line.lineId, exists.has(line.variantId) ? 'out_of_stock' : 'not_found');
    }
    return lines.filter((l) => !refused.includes(l));
  }

  private async create(wanted: WantedCart, problems: Map<string, SentLine['problem']>, sf: Storefront, carrier: boolean): Promise<SfCart> {
    let lines = wanted.lines;
    const selects = Object.keys(wanted.options).length > 0 && !!wanted.address;
    for (let attempt = 0; attempt < 2; attempt++) {
      const { cartCreate } = await sf.deferred<{ cartCreate: SfCartPayload }>(Q.CART_CREATE, {
        input: createInput({ ...wanted, lines }),
        rates: carrier && !selects,
      });
      if (cartCreate.cart) {
        const cart = adoptCarrierGroups(cartCreate.cart);
        if (!selects) return cart;
        const handle = nextHandle(cart, { ...wanted, lines, options: {} }, problems);
        return (await this.selectOptions(handle, wanted.options, sf, carrier)) ?? cart;
      }
      const remaining = await this.refuse(lines, cartCreate.userErrors, problems, sf);
      if (remaining.length === lines.length) break;
      lines = remaining;
    }
    throw new BackendError('Shopify refused to create a cart', false);
  }

  /** Brings the handle's cart to `wanted`; null when Shopify no longer knows the cart. */
  private async sync(
    handle: CartHandle,
    wanted: WantedCart,
    problems: Map<string, SentLine['problem']>,
    sf: Storefront,
    carrier: boolean,
  ): Promise<SfCart | null> {
    const { variables, changed, optionsAfter } = syncVariables(handle, wanted);
    if (!changed) return this.read(handle.cart, sf, carrier);
    const payloads = await this.syncCall(sf, variables, carrier && !optionsAfter);
    const all = Object.values(payloads);
    if (all.some((p) => p && cartGone(p.userErrors))) return null;
    let cart = lastCart([
      payloads.buyer,
      payloads.remove,
      payloads.update,
      payloads.add,
      payloads.codes,
      payloads.addresses,
      payloads.options,
    ]);
    if (payloads.add && !payloads.add.cart) {
      const sent = wanted.lines.filter((l) => variables.add.some((a) => a.attributes[0]!.value === l.lineId));
      const retry = await this.refuse(sent, payloads.add.userErrors, problems, sf);
      if (retry.length) {
        const { add } = await this.syncCall(sf, { ...noSteps(handle.cart), add: retry.map(lineInput), doAdd: true }, carrier);
        cart = add?.cart ?? cart;
      }
    }
    if (!cart)
      throw new BackendError(
        `Shopify refused the cart update: ${all
          .flatMap((p) => p?.userErrors ?? [])
          .map((e) => e.message)
          .join('; ')}`,
        false,
      );
    const needsOptions = optionsAfter || (payloads.options && !payloads.options.cart);
    if (needsOptions && Object.keys(wanted.options).length) {
      cart = (await this.selectOptions(nextHandle(cart, { ...wanted, options: {} }, problems), wanted.options, sf, carrier)) ?? cart;
    }
    return cart;
  }

  /** The cart unchanged: one read, with the carrier-rate groups in a deferred part when wanted. */
  private async read(cartId: string, sf: Storefront, carrier: boolean): Promise<SfCart | null> {
    if (!carrier) return (await sf<{ cart: SfCart | null }>(Q.CART_QUERY, { id: cartId })).cart;
    const { cart } = await sf.deferred<{ cart: CarrierCart | null }>(Q.CART_QUERY_CARRIER, { id: cartId });
    return cart && adoptCarrierGroups(cart);
  }

  /** One CART_SYNC request; with `carrier`, the cart its last step answers brings the carrier-rate groups. */
  private async syncCall(sf: Storefront, variables: Record<string, unknown>, carrier: boolean): Promise<SyncPayloads> {
    const payloads = await sf.deferred<SyncPayloads>(Q.CART_SYNC, carrier ? ratesOnLastStep(variables) : variables);
    for (const p of Object.values(payloads)) if (p?.cart) p.cart = adoptCarrierGroups(p.cart);
    return payloads;
  }

  /**
   * The cart with its delivery groups as Shopify lists them with carrier-calculated rates. After an
   * address change Shopify calculates them for a while (the groups have no options yet; selecting
   * one answers PENDING_DELIVERY_GROUPS): read again, a bounded number of times with a growing
   * wait; `ratesPending` when some group still has none.
   */
  private async withCarrierRates(cart: SfCart, sf: Storefront, signal: AbortSignal | undefined) {
    let groups = carrierRead.has(cart) ? cart.deliveryGroups : undefined;
    for (let read = groups ? 1 : 0; ;) {
      if (groups) {
        const ratesPending = groups.nodes.some((g) => g.deliveryOptions.length === 0);
        if (!ratesPending || read === CARRIER_RATE_READS) return { cart: { ...cart, deliveryGroups: groups }, ratesPending };
        await sleep(CARRIER_RATE_WAIT_MS * 2 ** (read - 1), undefined, signal && { signal });
      }
      const found = (await sf.deferred<{ cart: Pick<CarrierCart, 'id' | 'carrierGroups'> | null }>(Q.CART_DELIVERY, { id: cart.id })).cart;
      if (!found?.carrierGroups) return { cart, ratesPending: false };
      groups = found.carrierGroups;
      read++;
    }
  }

  /** Sets lines holding more than wanted (a replayed add merged into them) back to the wanted quantity. */
  private async trimExcess(cart: SfCart, wanted: WantedCart, sf: Storefront, carrier: boolean): Promise<SfCart> {
    const update = excessLines(cart, wanted);
    if (!update.length) return cart;
    const { update: payload } = await this.syncCall(sf, { ...noSteps(cart.id), update, doUpdate: true }, carrier);
    if (!payload?.cart)
      throw new BackendError(`Shopify refused the cart update: ${payload?.userErrors.map((e) => e.message).join('; ')}`, false);
    return payload.cart;
  }

  /** Selects options once the cart's delivery groups are known; undefined when none applies. */
  private async selectOptions(
    handle: CartHandle,
    options: Record<string, string>,
    sf: Storefront,
    carrier: boolean,
  ): Promise<SfCart | undefined> {
    const inputs = optionInputs(handle.groups, options);
    if (!inputs.length) return undefined;
    const { options: payload } = await this.syncCall(sf, { ...noSteps(handle.cart), options: inputs, doOptions: true }, carrier);
    return payload?.cart ?? undefined;
  }
}

/** The cart with the carrier-rate groups, when the answer has them, as its delivery groups. */
function adoptCarrierGroups(cart: CarrierCart): SfCart {
  if (!cart.carrierGroups) return cart;
  const { carrierGroups, ...rest } = cart;
  const read = { ...rest, deliveryGroups: carrierGroups };
  carrierRead.add(read);
  return read;
}

/** Asks the last step a CART_SYNC request runs for its cart's carrier-rate groups (`$<step>Rates`). */
function ratesOnLastStep(variables: Record<string, unknown>): Record<string, unknown> {
  const last = [...Q.SYNC_STEPS].reverse().find((step) => variables[`do${step[0]!.toUpperCase()}${step.slice(1)}`] === true);
  return last ? { ...variables, [`${last}Rates`]: true } : variables;
}

/** CartSync variables with every step off, to run one step alone. */
function noSteps(cartId: string) {
  return {
    cartId,
    buyer: {},
    doBuyer: false,
    remove: [],
    doRemove: false,
    update: [],
    doUpdate: false,
    add: [],
    doAdd: false,
    codes: [],
    doCodes: false,
    addresses: [],
    doAddresses: false,
    options: [],
    doOptions: false,
  };
}

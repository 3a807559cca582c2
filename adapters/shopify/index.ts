/**
 * The Shopify adapter: catalog and carts on the Storefront API (in the buyer's market), tax and
 * orders on the Admin API, finishing by handoff to Shopify's own checkout (the cart's
 * `checkoutUrl`, with the gateway's checkout id as a cart attribute that Shopify copies onto the
 * order) or, for a gateway payment handler, as a draft order completed paid; inbound webhooks
 * verified with the app secret. All calls go through ShopifyClient (@shopify/shopify-api).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type {
  Adapter,
  AdapterCapabilities,
  BackendEvent,
  CheckoutUrlRequest,
  LookupOptions,
  LookupResult,
  OrderSnapshot,
  PickupLocation,
  PlaceOrderRequest,
  PlaceOrderResult,
  Quote,
  QuoteRequest,
  RequestContext,
  SearchPage,
  SearchQuery,
} from '../contract.js';
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
import { money, toCatalogProduct, type MoneyV2, type SfProduct } from './catalog.js';
import { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { shopifyLanguage } from './languages.js';
import { toPickupLocation, type SfLocation } from './pickup.js';
import { isGid, orderGid, orderIdOf, REFERENCE_ATTRIBUTE, referenceTag } from './ids.js';
import { toOrderSnapshot, type AdminOrder } from './orders.js';
import { toQuote } from './quote.js';
import { draftFor, taxKey, withTax, type TaxResult } from './tax.js';
import { browseQuery, pageBinding, pageTokens, productFilters } from './search.js';
import type { ShopifyConfig, ShopifyCredentials } from './settings.js';
import { ORDER_TOPICS, verifyShopifyWebhook } from './webhooks.js';

type Market = ShopifyConfig['markets'][number];
/** A Storefront call bound to one request's context (`@inContext` variables, buyer IP, deadline). */
type StorefrontCall = <T>(document: string, variables: Record<string, unknown>) => Promise<T>;
/** `deferred` for documents with `@defer` (answered multipart/mixed). */
type Storefront = StorefrontCall & { deferred: StorefrontCall };
/** Carts whose delivery groups were read with carrier-calculated rates. */
const carrierRead = new WeakSet<SfCart>();
type SyncPayloads = Partial<Record<(typeof Q.SYNC_STEPS)[number], SfCartPayload | null>>;
/** A cart as a document asking for the carrier-rate groups answers it. */
type CarrierCart = SfCart & { carrierGroups?: SfCart['deliveryGroups'] };

const MAX_PAGE = 250;
/** Reads of carrier-calculated rates per quote, 100 + 200 + 400 ms apart at most. */
const CARRIER_RATE_READS = 4;
const CARRIER_RATE_WAIT_MS = 100;

export class ShopifyAdapter implements Adapter {
  readonly kind = 'shopify';
  readonly capabilities: AdapterCapabilities;
  readonly storefrontUrl: string;
  /** Checkout URL and reference attribute of carts seen in answers (quote then checkoutUrl: one call). */
  private readonly seen = new LRUCache<string, { url: string; reference?: string }>({ max: 10_000 });
  private readonly pageTokens: ReturnType<typeof pageTokens>;

  constructor(
    private readonly settings: ShopifyConfig,
    private readonly credentials: ShopifyCredentials,
    private readonly client: ShopifyClient = new ShopifyClient(settings, credentials),
  ) {
    this.storefrontUrl = (settings.storefront_url ?? `https://${settings.shop}`).replace(/\/+$/, '');
    // Keyed with the Storefront token: a store secret, the same on every replica.
    this.pageTokens = pageTokens(credentials.storefront_token);
    this.capabilities = {
      lookupKeys: ['sku', 'handle'],
      customFilters: [
        {
          name: 'available',
          description: 'true: only products with a variant for sale now; false: only those without.',
          schema: { type: 'boolean' },
        },
      ],
      currencies: [...new Set(settings.markets.map((m) => m.currency))],
      quotesShipping: true,
      quotesTax: true,
      pickup: true,
      locationStock: true,
      multiGroup: false,
      fulfillmentDiscovery: false,
      rejectionReasons: false,
      acceptedClaims: [],
      finishing: ['handoff', 'gateway_charged'],
    };
  }

  /** The Shopify Market of a currency (else of a country, else the default). */
  private market(currency?: string, country?: string): Market {
    const { markets } = this.settings;
    return markets.find((m) => m.currency === currency) ?? markets.find((m) => m.country === country) ?? markets[0]!;
  }

  /** `@inContext` of a request: the market's country, the buyer's language else the tenant's. */
  private inContext(market: Market, request: RequestContext | undefined) {
    const language = shopifyLanguage(request?.language) ?? this.settings.language;
    return { country: market.country, ...(language && { language }) };
  }

  /** Storefront calls for one request: in its context, with the buyer's IP, under its deadline. */
  private storefront(market: Market, request: RequestContext | undefined, signal: AbortSignal | undefined, extra: object = {}): Storefront {
    const context = { ...this.inContext(market, request), ...extra };
    const call = <T>(document: string, variables: Record<string, unknown>) =>
      this.client.storefront<T>(document, { ...variables, ...context }, signal, request?.clientIp);
    const deferred = <T>(document: string, variables: Record<string, unknown>) =>
      this.client.storefrontDeferred<T>(document, { ...variables, ...context }, signal, request?.clientIp);
    return Object.assign(call, { deferred });
  }

  // ------------------------------------------------------------ catalog

  async search(query: SearchQuery, signal?: AbortSignal, context?: RequestContext): Promise<SearchPage> {
    const after = query.pageToken ? this.pageTokens.read(query.pageToken, pageBinding(query)) : undefined;
    const market = this.market(query.price?.currency);
    const first = Math.min(MAX_PAGE, Math.max(1, query.limit));
    const text = query.text?.trim();
    // Per-location stock is left to lookups: 20 locations x 250 variants per product is too costly a page.
    const sf = this.storefront(market, context, signal, { withStock: false });
    type Page = { nodes: SfProduct[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount?: number };
    const page = text
      ? (await sf<{ search: Page }>(Q.SEARCH, { query: text, first, after, filters: productFilters(query) })).search
      : (await sf<{ products: Page }>(Q.BROWSE, { query: browseQuery(query), first, after })).products;
    return {
      products: page.nodes.map((p) => toCatalogProduct(p, this.storefrontUrl)),
      ...(page.pageInfo.hasNextPage &&
        page.pageInfo.endCursor && { nextPageToken: this.pageTokens.write(pageBinding(query), page.pageInfo.endCursor) }),
      ...(page.totalCount !== undefined && { totalCount: page.totalCount }),
    };
  }

  /** Product and variant gids through `nodes`, handles through `product(handle:)`, SKUs through the Admin API. */
  async lookup(ids: string[], signal?: AbortSignal, options: LookupOptions = {}): Promise<LookupResult[]> {
    const unique = [...new Set(ids)];
    const selected = options.selected ?? [];
    const sf = this.storefront(this.market(), options.context, signal, { withStock: true, selected, withSelected: selected.length > 0 });
    const gids = unique.filter((id) => isGid('Product', id) || isGid('ProductVariant', id));
    const others = unique.filter((id) => !gids.includes(id));
    const byHandle = await Promise.all(
      others.map(async (handle) => ({
        handle,
        product: (await sf<{ product: SfProduct | null }>(Q.PRODUCT_BY_HANDLE, { handle })).product,
      })),
    );
    const skus = byHandle.filter((h) => !h.product).map((h) => h.handle);
    const skuVariants = new Map<string, string>();
    if (skus.length) {
      const query = skus.map((s) => `sku:${JSON.stringify(s)}`).join(' OR ');
      const found = await this.client.admin<{ productVariants: { nodes: Array<{ id: string; sku: string | null }> } }>(
        Q.VARIANTS_BY_SKU,
        { query },
        signal,
      );
      for (const sku of skus) {
        const variant = found.productVariants.nodes.find((v) => v.sku?.toLowerCase() === sku.toLowerCase());
        if (variant) skuVariants.set(sku, variant.id);
      }
    }
    const nodeIds = [...new Set([...gids, ...skuVariants.values()])];
    type Node = ({ __typename: 'Product' } & SfProduct) | { __typename: 'ProductVariant'; id: string; product: SfProduct } | null;
    const nodes = nodeIds.length ? (await sf<{ nodes: Node[] }>(Q.NODES, { ids: nodeIds })).nodes : [];
    const products = new Map<string, SfProduct>();
    const variantProduct = new Map<string, string>();
    for (const node of nodes) {
      if (node?.__typename === 'Product') products.set(node.id, node);
      if (node?.__typename === 'ProductVariant') {
        products.set(node.product.id, node.product);
        variantProduct.set(node.id, node.product.id);
      }
    }
    for (const { product } of byHandle) if (product) products.set(product.id, product);

    const results = new Map<string, LookupResult>();
    const add = (id: string, productId: string, variantId: string | undefined) => {
      const sf = products.get(productId);
      if (!sf) return;
      const result = results.get(productId) ?? { product: toCatalogProduct(sf, this.storefrontUrl), inputs: [] };
      result.inputs.push(
        variantId ? { id, variantId, match: 'exact' } : { id, variantId: result.product.featuredVariantId, match: 'featured' },
      );
      results.set(productId, result);
    };
    for (const id of unique) {
      if (isGid('Product', id)) add(id, id, undefined);
      else if (isGid('ProductVariant', id)) add(id, variantProduct.get(id) ?? '', id);
      else {
        const product = byHandle.find((h) => h.handle === id)?.product;
        if (product) add(id, product.id, undefined);
        const variant = skuVariants.get(id);
        if (variant) add(id, variantProduct.get(variant) ?? '', variant);
      }
    }
    return [...results.values()];
  }

  /** The shop's local pickup locations (Storefront `locations`, every page). */
  async pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]> {
    const sf = this.storefront(this.market(), undefined, signal);
    const all: PickupLocation[] = [];
    let after: string | null = null;
    do {
      type Page = { locations: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: SfLocation[] } };
      const page: Page = await sf<Page>(Q.LOCATIONS, { after });
      all.push(...page.locations.nodes.map(toPickupLocation));
      after = page.locations.pageInfo.hasNextPage ? page.locations.pageInfo.endCursor : null;
    } while (after);
    return all;
  }

  // ------------------------------------------------------------ carts and checkout

  async quote(request: QuoteRequest, signal?: AbortSignal, context?: RequestContext): Promise<Quote> {
    return (await this.priceCart(request, signal, context)).quote;
  }

  /** The quote, with the Shopify cart it was priced in and the draft order that would charge it. */
  private async priceCart(request: QuoteRequest, signal?: AbortSignal, client?: RequestContext) {
    const market = this.market(request.currency, request.location?.country);
    const wanted = wantedCart(request, market.country);
    const sf = this.storefront(market, client, signal);
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

  private remember(cart: Pick<SfCart, 'id' | 'checkoutUrl' | 'attributes'>) {
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

  async checkoutUrl(
    request: CheckoutUrlRequest,
    signal?: AbortSignal,
    context?: RequestContext,
  ): Promise<{ url: string; handle?: string }> {
    let handle = request.handle;
    let made: string | undefined;
    if (!readHandle(handle)) {
      made = handle = (await this.quote({ ...request.quote, handle: undefined, reference: request.reference }, signal, context)).handle;
    }
    const kept = readHandle(handle)!;
    const cartId = kept.cart;
    // The cart carries the reference since its creation (or since an earlier call here): no call.
    if (kept.url && kept.reference === request.reference) return { url: kept.url, ...(made && { handle: made }) };
    const seen = this.seen.get(cartId);
    if (seen?.reference === request.reference) return { url: seen.url, ...(made && { handle: made }) };
    const { cartAttributesUpdate: result } = await this.client.storefront<{
      cartAttributesUpdate: { cart: Pick<SfCart, 'id' | 'checkoutUrl' | 'attributes'> | null; userErrors: SfCartPayload['userErrors'] };
    }>(Q.CART_ATTRIBUTES, { cartId, attributes: [{ key: REFERENCE_ATTRIBUTE, value: request.reference }] }, signal, context?.clientIp);
    if (!result.cart) {
      if (!made && cartGone(result.userErrors)) return this.checkoutUrl({ ...request, handle: undefined }, signal, context);
      throw new BackendError(`Shopify refused the cart attribute: ${result.userErrors.map((e) => e.message).join('; ')}`, false);
    }
    this.remember(result.cart);
    return { url: result.cart.checkoutUrl, ...(made && { handle: made }) };
  }

  // ------------------------------------------------------------ orders

  /**
   * gateway_charged: the checkout's cart becomes a draft order (same lines, codes, address and
   * shipping; tagged and attributed with the reference) completed as paid. Once per reference:
   * an order or a draft already made for it is reused.
   */
  async placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    if (request.payment.mode !== 'gateway_charged')
      return { status: 'rejected', reason: 'incomplete', detail: 'Shopify cannot charge a payment credential through its API.' };
    const existing = await this.findOrderByReference(request.reference, signal);
    if (existing) return { status: 'placed', ...existing };
    // A draft order has a shipping line, no pickup location: pickup orders are placed on Shopify's checkout.
    if (request.quote.fulfillment?.methods.some((m) => m.type === 'pickup' && m.lineIds.length > 0))
      return { status: 'rejected', reason: 'incomplete', detail: "Pickup orders are placed on the store's own checkout page." };
    const { quote, draft } = await this.priceCart(request.quote, signal);
    const unsellable = quote.lineProblems.find((p) => p.code !== 'insufficient_stock' && p.code !== 'invalid_quantity');
    if (unsellable || quote.lineProblems.length) {
      return {
        status: 'rejected',
        reason: unsellable?.code === 'not_found' ? 'incomplete' : 'out_of_stock',
        detail: 'A line can no longer be bought as checked out.',
      };
    }
    if (!draft)
      return { status: 'rejected', reason: 'incomplete', detail: 'A shipping address and an option for every delivery group are needed.' };
    if (quote.totals.total !== request.expectedTotal) {
      return {
        status: 'rejected',
        reason: 'price_changed',
        detail: 'The store prices this checkout differently now.',
        actualTotal: quote.totals.total,
      };
    }
    const { record } = request.payment;
    const input = {
      ...draft,
      email: request.buyer.email,
      tags: [referenceTag(request.reference)],
      customAttributes: [{ key: REFERENCE_ATTRIBUTE, value: request.reference }],
      note: `Paid through ${record.handlerId} (transaction ${record.transactionId}).`,
    };
    type Draft = {
      id: string;
      status: string;
      totalPriceSet: { presentmentMoney: MoneyV2 };
      order: { id: string; statusPageUrl: string } | null;
    };
    type Payload<K extends string> = Record<K, { draftOrder: Draft | null; userErrors: Array<{ message: string }> }>;
    const { draftOrders } = await this.client.admin<{ draftOrders: { nodes: Draft[] } }>(
      Q.DRAFT_ORDERS_BY_TAG,
      { query: `tag:${JSON.stringify(referenceTag(request.reference))}` },
      signal,
    );
    let made = draftOrders.nodes.find((d) => d.status !== 'COMPLETED');
    if (!made) {
      const { draftOrderCreate } = await this.client.admin<Payload<'draftOrderCreate'>>(Q.DRAFT_ORDER_CREATE, { input }, signal);
      if (!draftOrderCreate.draftOrder)
        return { status: 'rejected', reason: 'incomplete', detail: draftOrderCreate.userErrors.map((e) => e.message).join('; ') };
      made = draftOrderCreate.draftOrder;
    }
    const actualTotal = money(made.totalPriceSet.presentmentMoney);
    if (actualTotal !== request.expectedTotal)
      return { status: 'rejected', reason: 'price_changed', detail: 'The store prices this order differently.', actualTotal };
    const { draftOrderComplete } = await this.client.admin<Payload<'draftOrderComplete'>>(Q.DRAFT_ORDER_COMPLETE, { id: made.id }, signal);
    const order = draftOrderComplete.draftOrder?.order;
    if (!order)
      throw new BackendError(
        `Shopify did not complete the draft order: ${draftOrderComplete.userErrors.map((e) => e.message).join('; ')}`,
        false,
      );
    return { status: 'placed', orderId: orderIdOf(order.id), permalinkUrl: order.statusPageUrl };
  }

  async findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null> {
    type Found = { id: string; statusPageUrl: string; customAttributes?: Array<{ key: string; value: string | null }> };
    const tag = `tag:${JSON.stringify(referenceTag(reference))}`;
    const { tagged, recent } = await this.client.admin<{ tagged: { nodes: Found[] }; recent: { nodes: Found[] } }>(
      Q.ORDER_BY_REFERENCE,
      { tag },
      signal,
    );
    const order =
      tagged.nodes[0] ?? recent.nodes.find((o) => o.customAttributes?.some((a) => a.key === REFERENCE_ATTRIBUTE && a.value === reference));
    return order ? { orderId: orderIdOf(order.id), permalinkUrl: order.statusPageUrl } : null;
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const { order } = await this.client.admin<{ order: AdminOrder | null }>(Q.ORDER_QUERY, { id: orderGid(orderId) }, signal);
    return order ? toOrderSnapshot(order) : null;
  }

  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): BackendEvent | null {
    return verifyShopifyWebhook(this.credentials.webhook_secret ?? this.credentials.client_secret!, headers, rawBody);
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.client.admin(Q.SHOP, {}, signal);
  }

  /** Every webhook subscription of the app on this shop. */
  async webhookSubscriptions(signal?: AbortSignal): Promise<Array<{ topic: string; uri: string }>> {
    const all: Array<{ topic: string; uri: string }> = [];
    let after: string | null = null;
    do {
      type Page = {
        webhookSubscriptions: {
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          nodes: Array<{ topic: string; uri: string }>;
        };
      };
      const page: Page = await this.client.admin<Page>(Q.WEBHOOK_SUBSCRIPTIONS, { after }, signal);
      all.push(...page.webhookSubscriptions.nodes);
      after = page.webhookSubscriptions.pageInfo.hasNextPage ? page.webhookSubscriptions.pageInfo.endCursor : null;
    } while (after);
    return all;
  }

  /** Subscribes `callbackUrl` to every order topic the gateway reads; topics already subscribed are left alone. */
  async registerWebhooks(callbackUrl: string, signal?: AbortSignal): Promise<{ created: string[]; existing: string[] }> {
    const subscribed = new Set((await this.webhookSubscriptions(signal)).filter((s) => s.uri === callbackUrl).map((s) => s.topic));
    const created: string[] = [];
    for (const topic of ORDER_TOPICS.filter((t) => !subscribed.has(t))) {
      type Created = { webhookSubscriptionCreate: { userErrors: Array<{ message: string }> } };
      const { webhookSubscriptionCreate: r } = await this.client.admin<Created>(
        Q.WEBHOOK_SUBSCRIPTION_CREATE,
        { topic, uri: callbackUrl },
        signal,
      );
      if (r.userErrors.length)
        throw new BackendError(`Shopify refused the ${topic} subscription: ${r.userErrors.map((e) => e.message).join('; ')}`, false);
      created.push(topic);
    }
    return { created, existing: ORDER_TOPICS.filter((t) => subscribed.has(t)) };
  }
}

/** CartSync variables with every step off, to run one step alone. */
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

export function createShopifyAdapter(settings: ShopifyConfig, credentials: ShopifyCredentials): ShopifyAdapter {
  return new ShopifyAdapter(settings, credentials);
}

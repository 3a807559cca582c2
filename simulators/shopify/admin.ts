/** The Admin API root: SKU lookup, orders, draft orders, webhook subscriptions, the shop. */
import { fromMinorUnits } from '../../adapters/kit/money.js';
import { draftOrderNode } from './draft-order-node.js';
import type { CompleteOptions, DraftOrderInput, DraftOrders, DraftRecord } from './draft-orders.js';
import { connection, gid, type ConnectionArgs } from './graph.js';
import { orderNode } from './order-node.js';
import { numeric } from './order-payloads.js';
import type { OrderRecord, Orders } from './orders.js';
import { compare, search, textMatches, timeField, type SearchFields, type SearchWarning, type Term } from './search-syntax.js';
import type { StoreVariant } from '../../adapters/memory/model.js';
import { schemaVersions } from './schemas.js';
import type { ShopData } from './shop-data.js';
import type { Subscription, Webhooks } from './webhooks.js';

export interface AdminRequest {
  origin: string;
  shopDomain: string;
  apiVersion: string;
  now: () => number;
  /** Search warnings of this request, answered in `extensions.search`. */
  searchWarnings: Array<{ path: string[]; query: string; warnings: SearchWarning[] }>;
}

const idField =
  <T>(of: (record: T) => string) =>
  (record: T, term: Term) =>
    compare(numeric(of(record)), term.op, Number(term.value));

/** The search fields of the `orders` query the simulator answers (of those its reference lists). */
function orderFields(orders: Orders, shop: ShopData, now: () => number): SearchFields<OrderRecord> {
  const time = (of: (o: OrderRecord) => string) => timeField(of, shop.timeZone, now);
  return {
    // The fields a bare value searches are not listed; the order's name, email and tags here.
    default: (o, v) => [o.name, o.name.replace('#', ''), o.email ?? '', ...o.tags].some((x) => x.toLowerCase() === v.toLowerCase()),
    fields: {
      tag: (o, t) => o.tags.some((tag) => textMatches(tag, t)),
      tag_not: (o, t) => !o.tags.some((tag) => textMatches(tag, t)),
      name: (o, t) => textMatches(o.name, t) || textMatches(o.name.replace('#', ''), t),
      email: (o, t) => textMatches(o.email, t),
      id: idField((o) => o.id),
      created_at: time((o) => o.createdAt),
      processed_at: time((o) => o.createdAt),
      updated_at: time((o) => o.updatedAt),
      source_name: (o, t) => textMatches(o.sourceName, t),
      // "Filter by the cart token's unique value ... The token references the cart that's associated with an order."
      cart_token: (o, t) => o.cartToken !== null && textMatches(o.cartToken, t),
      financial_status: (o, t) => textMatches(orders.financialStatus(o), t),
      status: (o, t) =>
        t.value === 'cancelled' ? !!o.cancelledAt : t.value === 'open' || t.value === 'not_closed' ? !o.cancelledAt : false,
      discount_code: (o, t) => o.discountCodes.slice(0, 1).some((c) => textMatches(c, t)),
    },
  };
}

/** The `draftOrders` query's search fields: default, created_at, customer_id, id, source, status, tag, updated_at. */
function draftFields(shop: ShopData, now: () => number): SearchFields<DraftRecord> {
  const time = (of: (d: DraftRecord) => string) => timeField(of, shop.timeZone, now);
  return {
    default: (d, v) => [d.name, d.input.email ?? '', ...(d.input.tags ?? [])].some((x) => x.toLowerCase() === v.toLowerCase()),
    fields: {
      tag: (d, t) => (d.input.tags ?? []).some((tag) => textMatches(tag, t)),
      status: (d, t) => textMatches(d.status, t),
      id: idField((d) => d.id),
      created_at: time((d) => d.createdAt),
      updated_at: time((d) => d.updatedAt),
      customer_id: () => false,
      source: () => false,
    },
  };
}

export function adminRoot(shop: ShopData, orders: Orders, drafts: DraftOrders, webhooks: Webhooks, request: AdminRequest) {
  const order = (id: string) => {
    const record = orders.get(id);
    return record ? orderNode(orders, shop, record, request.origin) : null;
  };
  const invoiceUrl = (draft: { id: string }) => `${request.origin}/invoices/${draft.id.split('/').at(-1)}`;
  const draftNode = (draft: DraftRecord | { input: DraftOrderInput }) =>
    draftOrderNode(shop, drafts, draft, order, invoiceUrl, request.now());
  const searched = <T>(path: string, records: T[], query: string | null | undefined, fields: SearchFields<T>) => {
    const { found, warnings } = search(records, query, fields);
    if (warnings.length) request.searchWarnings.push({ path: [path], query: query ?? '', warnings });
    return found;
  };
  const subscriptionNode = (s: Subscription) => ({
    ...s,
    legacyResourceId: s.id.split('/').at(-1),
    filter: null,
    includeFields: [],
    metafieldNamespaces: [],
    name: null,
    apiVersion: { handle: request.apiVersion, displayName: request.apiVersion, supported: true },
    endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: s.uri },
    callbackUrl: s.uri,
  });
  const sorted = (sortKey: string | null | undefined) => (a: OrderRecord, b: OrderRecord) => {
    const field = sortKey === 'UPDATED_AT' ? 'updatedAt' : sortKey === 'CREATED_AT' || sortKey === 'PROCESSED_AT' ? 'createdAt' : undefined;
    return (field ? a[field].localeCompare(b[field]) : 0) || numeric(a.id) - numeric(b.id);
  };
  const variantFields: SearchFields<StoreVariant> = {
    default: (v, value) =>
      v.variant.sku?.toLowerCase() === value.toLowerCase() || v.product.title.toLowerCase().includes(value.toLowerCase()),
    fields: { sku: (v, t) => textMatches(v.variant.sku, t) },
  };

  return {
    // The versions this simulator has schemas of, all stable (it serves no release candidate or unstable).
    publicApiVersions: () => schemaVersions().map((handle) => ({ handle, displayName: handle, supported: true })),
    shop: {
      id: gid('Shop', 1),
      name: 'Petal & Stem Flower Co.',
      myshopifyDomain: request.shopDomain,
      email: 'shop@petal-and-stem.example',
      contactEmail: 'shop@petal-and-stem.example',
      currencyCode: shop.shopCurrency,
      taxesIncluded: shop.taxesIncluded,
      enabledPresentmentCurrencies: shop.markets.map((m) => m.currency),
      ianaTimezone: shop.timeZone,
      url: `https://${request.shopDomain}`,
      primaryDomain: { host: 'petal-and-stem.example', url: 'https://petal-and-stem.example', sslEnabled: true },
    },
    productVariants: (args: ConnectionArgs & { query?: string | null }) => {
      const store = shop.store(shop.markets[0]!).data;
      return connection(
        searched('productVariants', [...store.variants.values()], args.query, variantFields).map((v) => ({
          id: shop.ids.gid('ProductVariant', v.variant.id),
          sku: v.variant.sku ?? null,
          title: v.variant.options.length ? v.variant.title : 'Default Title',
          displayName: `${v.product.title} - ${v.variant.options.length ? v.variant.title : 'Default Title'}`,
          price: fromMinorUnits(v.variant.price.amount, shop.shopCurrency),
          inventoryQuantity: v.stock ?? 0,
          availableForSale: v.variant.availability.available,
          selectedOptions: v.variant.options,
          product: {
            id: shop.ids.gid('Product', v.product.id),
            handle: v.product.handle,
            title: v.product.title,
            status: v.discontinued ? 'ARCHIVED' : 'ACTIVE',
          },
        })),
        args,
      );
    },
    order: ({ id }: { id: string }) => order(id),
    orders: (args: ConnectionArgs & { query?: string | null; sortKey?: string | null }) =>
      connection(
        searched('orders', orders.all(), args.query, orderFields(orders, shop, request.now))
          .sort(sorted(args.sortKey))
          .map((o) => order(o.id)),
        args,
      ),
    draftOrder: ({ id }: { id: string }) => {
      const draft = drafts.get(id);
      return draft ? draftNode(draft) : null;
    },
    draftOrders: (args: ConnectionArgs & { query?: string | null }) =>
      connection(searched('draftOrders', drafts.all(), args.query, draftFields(shop, request.now)).map(draftNode), args),
    webhookSubscriptions: (args: ConnectionArgs & { topics?: string[] | null; uri?: string | null }) =>
      connection(
        webhooks.subscriptions
          .filter((s) => (!args.topics || args.topics.includes(s.topic)) && (!args.uri || args.uri === s.uri))
          .map(subscriptionNode),
        args,
      ),

    draftOrderCalculate: ({ input }: { input: DraftOrderInput }) => {
      const { errors } = drafts.price(input);
      return { calculatedDraftOrder: errors.length ? null : draftNode({ input }), userErrors: errors };
    },
    draftOrderCreate: ({ input }: { input: DraftOrderInput }) => {
      const { draft, errors } = drafts.create(input);
      return { draftOrder: draft ? draftNode(draft) : null, userErrors: errors };
    },
    draftOrderComplete: async ({ id, ...options }: { id: string } & CompleteOptions) => {
      const { draft, errors } = await drafts.complete(id, options);
      return { draftOrder: draft ? draftNode(draft) : null, userErrors: errors };
    },
    draftOrderInvoiceSend: ({ id }: { id: string }) => {
      const { draft, errors } = drafts.sendInvoice(id);
      return { draftOrder: draft ? draftNode(draft) : null, userErrors: errors };
    },
    orderMarkAsPaid: async ({ input }: { input: { id: string } }) => {
      const { order: marked, userErrors } = await orders.markAsPaid(input.id);
      return { order: marked ? order(marked.id) : null, userErrors };
    },
    webhookSubscriptionCreate: ({
      topic,
      webhookSubscription,
    }: {
      topic: string;
      webhookSubscription: { uri?: string | null; callbackUrl?: string | null; format?: string | null };
    }) => {
      const uri = webhookSubscription.uri ?? webhookSubscription.callbackUrl ?? '';
      const { subscription, error } = webhooks.subscribe(topic, uri, webhookSubscription.format ?? 'JSON');
      return {
        webhookSubscription: subscription ? subscriptionNode(subscription) : null,
        userErrors: error ? [{ field: ['webhookSubscription', 'callbackUrl'], message: error }] : [],
      };
    },
    webhookSubscriptionDelete: ({ id }: { id: string }) =>
      webhooks.unsubscribe(id)
        ? { deletedWebhookSubscriptionId: id, userErrors: [] }
        : { deletedWebhookSubscriptionId: null, userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }] },
  };
}

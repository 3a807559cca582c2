/** The Admin API root: SKU lookup, orders, draft orders, webhook subscriptions, the shop. */
import { fromMinorUnits } from '../../adapters/kit/money.js';
import type { DraftOrderInput, DraftOrders } from './draft-orders.js';
import { ArgumentError, connection, gid, type ConnectionArgs } from './graph.js';
import { orderNode, type OrderRecord, type Orders } from './orders.js';
import type { ShopData } from './shop-data.js';
import type { Subscription, Webhooks } from './webhooks.js';

export interface AdminRequest {
  origin: string;
  shopDomain: string;
  apiVersion: string;
}

type Term = { field: string; op: string; value: string };

/**
 * The search syntax the adapter uses: `sku:X`, `tag:'X'`, `updated_at:>'ISO'`; clauses joined with
 * AND, alternatives with OR. Answers the clauses, each a list of alternatives.
 */
function searchTerms(query: string | null | undefined): Term[][] {
  return (query ?? '')
    .split(/\s+AND\s+/)
    .filter(Boolean)
    .map((clause) =>
      clause
        .replace(/^\((.*)\)$/, '$1')
        .split(/\s+OR\s+/)
        .map((term) => {
          const m = /^([a-z_]+):(>=|<=|>|<)?(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(\S+))$/.exec(term.trim());
          if (!m) throw new ArgumentError(`unsupported search term ${term}`);
          return { field: m[1]!, op: m[2] ?? ':', value: (m[3] ?? m[4] ?? m[5] ?? '').replace(/\\(.)/g, '$1') };
        }),
    );
}

const matches = (clauses: Term[][], test: (t: Term) => boolean) => clauses.every((alternatives) => alternatives.some(test));

function recordTerm(record: { tags: string[]; updatedAt: string }, t: Term): boolean {
  if (t.field === 'tag') return record.tags.some((tag) => tag.toLowerCase() === t.value.toLowerCase());
  if (t.field === 'updated_at') {
    const [a, b] = [Date.parse(record.updatedAt), Date.parse(t.value)];
    return t.op === '>' ? a > b : t.op === '>=' ? a >= b : t.op === '<' ? a < b : t.op === '<=' ? a <= b : a === b;
  }
  throw new ArgumentError(`unsupported search field ${t.field}`);
}

export function adminRoot(shop: ShopData, orders: Orders, drafts: DraftOrders, webhooks: Webhooks, request: AdminRequest) {
  const order = (id: string) => {
    const record = orders.get(id);
    return record ? orderNode(orders, shop, record, request.origin) : null;
  };
  const invoiceUrl = (draft: { id: string }) => `${request.origin}/invoices/${draft.id.split('/').at(-1)}`;
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
    return (field ? a[field].localeCompare(b[field]) : 0) || Number(a.id.split('/').at(-1)) - Number(b.id.split('/').at(-1));
  };

  return {
    shop: {
      id: gid('Shop', 1),
      name: 'Petal & Stem Flower Co.',
      myshopifyDomain: request.shopDomain,
      email: 'shop@petal-and-stem.example',
      contactEmail: 'shop@petal-and-stem.example',
      currencyCode: shop.shopCurrency,
      taxesIncluded: shop.taxesIncluded,
      enabledPresentmentCurrencies: shop.markets.map((m) => m.currency),
      ianaTimezone: 'America/Chicago',
      url: `https://${request.shopDomain}`,
      primaryDomain: { host: 'petal-and-stem.example', url: 'https://petal-and-stem.example', sslEnabled: true },
    },
    productVariants: (args: ConnectionArgs & { query?: string | null }) => {
      const terms = searchTerms(args.query);
      const store = shop.store(shop.markets[0]!).data;
      const found = [...store.variants.values()].filter((v) =>
        matches(terms, (t) => {
          if (t.field !== 'sku') throw new ArgumentError(`unsupported search field ${t.field}`);
          return v.variant.sku?.toLowerCase() === t.value.toLowerCase();
        }),
      );
      return connection(
        found.map((v) => ({
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
    orders: (args: ConnectionArgs & { query?: string | null; sortKey?: string | null }) => {
      const terms = searchTerms(args.query);
      return connection(
        orders
          .all()
          .filter((o) => matches(terms, (t) => recordTerm(o, t)))
          .sort(sorted(args.sortKey))
          .map((o) => order(o.id)),
        args,
      );
    },
    draftOrder: ({ id }: { id: string }) => {
      const draft = drafts.get(id);
      return draft ? drafts.node(draft, order, invoiceUrl) : null;
    },
    draftOrders: (args: ConnectionArgs & { query?: string | null }) => {
      const terms = searchTerms(args.query);
      const found = drafts.all().filter((d) => matches(terms, (t) => recordTerm({ tags: d.input.tags ?? [], updatedAt: d.updatedAt }, t)));
      return connection(
        found.map((d) => drafts.node(d, order, invoiceUrl)),
        args,
      );
    },
    webhookSubscriptions: (args: ConnectionArgs & { topics?: string[] | null; uri?: string | null }) =>
      connection(
        webhooks.subscriptions
          .filter((s) => (!args.topics || args.topics.includes(s.topic)) && (!args.uri || args.uri === s.uri))
          .map(subscriptionNode),
        args,
      ),

    draftOrderCalculate: ({ input }: { input: DraftOrderInput }) => {
      const { errors } = drafts.price(input);
      return { calculatedDraftOrder: errors.length ? null : drafts.node({ input }, order, invoiceUrl), userErrors: errors };
    },
    draftOrderCreate: ({ input }: { input: DraftOrderInput }) => {
      const { draft, errors } = drafts.create(input);
      return { draftOrder: draft ? drafts.node(draft, order, invoiceUrl) : null, userErrors: errors };
    },
    draftOrderComplete: async ({ id, sourceName }: { id: string; sourceName?: string | null }) => {
      const { draft, errors } = await drafts.complete(id, sourceName ?? null);
      return { draftOrder: draft ? drafts.node(draft, order, invoiceUrl) : null, userErrors: errors };
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

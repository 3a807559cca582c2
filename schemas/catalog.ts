/**
 * Catalog requests and responses (spec part 1 §2.6, §2.8, §4.1): search_catalog, lookup_catalog,
 * get_product. Requests tolerate members the spec leaves to extensions (top level, custom
 * filters) but refuse wrong types of the known ones; limits keep huge input out early.
 * Responses are exactly the shapes the gateway emits (tests validate every body against them).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Amount, Attribution, Context, CurrencyCode, Message, ResponseEnvelope, Signals, StringEnum } from './common.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Name = Type.String({ minLength: 1, maxLength: 200 });

// ---------------------------------------------------------------- requests

/** Destination of catalog fulfillment discovery (fulfillment extension): an area or a pickup location. */
export const FulfillsTo = Type.Object(
  {
    address_country: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    address_region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    postal_code: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    location: Type.Optional(Id),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type FulfillsTo = Static<typeof FulfillsTo>;

/** Minor units of context.currency (the store's currency when absent). */
const PriceFilter = Type.Object(
  { min: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e15 })), max: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e15 })) },
  { additionalProperties: false, minProperties: 1 },
);

/** Known filters are typed; other members are the store's custom filters, checked against its declarations. */
export const CatalogFilters = Type.Object(
  {
    categories: Type.Optional(Type.Array(Name, { minItems: 1, maxItems: 50 })),
    price: Type.Optional(PriceFilter),
    fulfills_to: Type.Optional(FulfillsTo),
    methods: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 10 })),
  },
  { additionalProperties: true, maxProperties: 32 },
);
export type CatalogFilters = Static<typeof CatalogFilters>;

const PaginationRequest = Type.Object(
  {
    /** Clamped to the tenant's page limit. */
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export const SearchRequest = Type.Object(
  {
    query: Type.Optional(Type.String({ maxLength: 1000 })),
    context: Type.Optional(Context),
    signals: Type.Optional(Signals),
    attribution: Type.Optional(Attribution),
    filters: Type.Optional(CatalogFilters),
    pagination: Type.Optional(PaginationRequest),
  },
  { additionalProperties: true },
);
export type SearchRequest = Static<typeof SearchRequest>;

export const LookupRequest = Type.Object(
  {
    /** The batch limit is the tenant's (`lookup_batch_limit`), checked by the operation. */
    ids: Type.Array(Id, { minItems: 1 }),
    filters: Type.Optional(CatalogFilters),
    context: Type.Optional(Context),
    signals: Type.Optional(Signals),
    attribution: Type.Optional(Attribution),
  },
  { additionalProperties: true },
);
export type LookupRequest = Static<typeof LookupRequest>;

export const SelectedOption = Type.Object({ name: Name, label: Name }, { additionalProperties: false });
export type SelectedOption = Static<typeof SelectedOption>;

export const GetProductRequest = Type.Object(
  {
    /** A product or variant id. */
    id: Id,
    /** Each option name at most once. */
    selected: Type.Optional(Type.Array(SelectedOption, { maxItems: 32 })),
    /** Option names, most important first: relaxation drops from the end. */
    preferences: Type.Optional(Type.Array(Name, { maxItems: 32 })),
    filters: Type.Optional(CatalogFilters),
    context: Type.Optional(Context),
    signals: Type.Optional(Signals),
    attribution: Type.Optional(Attribution),
  },
  { additionalProperties: true },
);
export type GetProductRequest = Static<typeof GetProductRequest>;

// ---------------------------------------------------------------- entities

export const Price = Type.Object({ amount: Amount, currency: CurrencyCode }, { additionalProperties: false });
export type Price = Static<typeof Price>;

const Text = Type.Object({ plain: Type.String() }, { additionalProperties: false });

const AvailabilityStatus = StringEnum(['in_stock', 'backorder', 'preorder', 'out_of_stock', 'discontinued']);

const Availability = Type.Object({ available: Type.Boolean(), status: AvailabilityStatus }, { additionalProperties: false });

/** Catalog fulfillment of a variant (spec §2.8): one answer per method for one location. */
export const CatalogFulfillment = Type.Object(
  {
    methods: Type.Array(
      Type.Object(
        {
          type: Type.String(),
          description: Type.Optional(Text),
          /** Authoritative for this method; not derived from the variant's availability. */
          availability: Type.Optional(Availability),
          /** The pickup location this answer is about. */
          location: Type.Optional(Type.String()),
          /** Representative (cheapest and fastest), not exhaustive; ids are accepted at checkout. */
          options: Type.Optional(
            Type.Array(
              Type.Object({ id: Type.String(), title: Type.String(), description: Type.Optional(Text) }, { additionalProperties: false }),
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CatalogFulfillment = Static<typeof CatalogFulfillment>;

const LookupInput = Type.Object({ id: Type.String(), match: Type.String() }, { additionalProperties: false });

export const Variant = Type.Object(
  {
    id: Type.String(),
    sku: Type.Optional(Type.String()),
    title: Type.String(),
    description: Type.Optional(Text),
    price: Price,
    availability: Availability,
    options: Type.Array(SelectedOption),
    tags: Type.Optional(Type.Array(Type.String())),
    seller: Type.Optional(
      Type.Object(
        {
          name: Type.String(),
          links: Type.Optional(
            Type.Array(Type.Object({ type: Type.String(), url: Type.String({ format: 'uri' }) }, { additionalProperties: false })),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /** Lookup responses: one entry per request id that resolved to this variant. */
    inputs: Type.Optional(Type.Array(LookupInput, { minItems: 1 })),
    /** Fulfillment extension, when active for the caller. */
    fulfillment: Type.Optional(CatalogFulfillment),
  },
  { additionalProperties: false },
);
export type Variant = Static<typeof Variant>;

const OptionValue = Type.Object(
  {
    label: Type.String(),
    /** Relative to the effective selection: a variant with this value can be bought now. */
    available: Type.Boolean(),
    /** Relative to the effective selection: a variant with this value exists. */
    exists: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const ProductOption = Type.Object({ name: Type.String(), values: Type.Array(OptionValue) }, { additionalProperties: false });
export type ProductOption = Static<typeof ProductOption>;

export const Product = Type.Object(
  {
    id: Type.String(),
    handle: Type.Optional(Type.String()),
    title: Type.String(),
    description: Type.Optional(Text),
    url: Type.Optional(Type.String({ format: 'uri' })),
    categories: Type.Array(Type.Object({ value: Type.String(), taxonomy: Type.Optional(Type.String()) }, { additionalProperties: false })),
    price_range: Type.Object({ min: Price, max: Price }, { additionalProperties: false }),
    media: Type.Array(
      Type.Object(
        { type: Type.String(), url: Type.String({ format: 'uri' }), alt_text: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    options: Type.Array(ProductOption),
    variants: Type.Array(Variant),
    rating: Type.Optional(
      Type.Object({ value: Type.Number(), scale_max: Type.Number(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    ),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** get_product: the effective selection (present for products with options). */
    selected: Type.Optional(Type.Array(SelectedOption)),
  },
  { additionalProperties: false },
);
export type Product = Static<typeof Product>;

// ---------------------------------------------------------------- responses

const Pagination = Type.Object(
  {
    /** Present when has_next_page. */
    cursor: Type.Optional(Type.String()),
    has_next_page: Type.Boolean(),
    /** Products matching the query; omitted when gateway-side filters make it unknowable. */
    total_count: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

const Messages = Type.Optional(Type.Array(Message));

export const SearchResponse = Type.Object(
  { proto: ResponseEnvelope, products: Type.Array(Product), pagination: Type.Optional(Pagination), messages: Messages },
  { additionalProperties: false },
);

export const LookupResponse = Type.Object(
  { proto: ResponseEnvelope, products: Type.Array(Product), messages: Messages },
  { additionalProperties: false },
);

export const GetProductResponse = Type.Object(
  { proto: ResponseEnvelope, product: Product, messages: Messages },
  { additionalProperties: false },
);

/** A catalog operation whose business outcome failed (get_product of an unknown id). */
export const CatalogErrorResponse = Type.Object(
  { proto: ResponseEnvelope, messages: Type.Array(Message, { minItems: 1 }) },
  { additionalProperties: false },
);

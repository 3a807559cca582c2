/**
 * Every GraphQL document the Shopify adapter sends, in one place: test/adapters/shopify/documents.test.ts
 * validates each against the real schemas of the default API version. Storefront reads run in the
 * buyer's context (`@inContext(country, language)`); Admin calls are for what the Storefront API
 * cannot do (SKU lookup, orders, draft orders, webhook subscriptions).
 */

const MONEY = 'amount currencyCode';

const VARIANT = `
  id title sku availableForSale currentlyNotInStock quantityAvailable requiresShipping
  price { ${MONEY} }
  selectedOptions { name value }
  image { url altText }
  storeAvailability(first: 20) @include(if: $withStock) { nodes { available quantityAvailable location { id } } }`;

const PRODUCT = `
  id handle title description vendor productType tags onlineStoreUrl
  category { name }
  images(first: 10) { nodes { url altText } }
  options { name optionValues { name } }
  encodedVariantExistence
  encodedVariantAvailability
  selectedOrFirstAvailableVariant { id }
  variants(first: 250) { nodes { ${VARIANT} } }`;

const CONTEXT_VARS = '$country: CountryCode, $language: LanguageCode, $withStock: Boolean!';
const IN_CONTEXT = '@inContext(country: $country, language: $language)';

/**
 * Product detail: the variant with exactly the caller's selected options, which `variants(first:
 * 250)` may not reach on a large product (Shopify allows 2048 variants), by `variantBySelectedOptions`.
 */
const DETAIL_VARS = `${CONTEXT_VARS}, $selected: [SelectedOptionInput!]!, $withSelected: Boolean!`;
const PRODUCT_DETAIL = `${PRODUCT}
  selectedVariant: variantBySelectedOptions(selectedOptions: $selected, ignoreUnknownOptions: true, caseInsensitiveMatch: true)
    @include(if: $withSelected) { ${VARIANT} }`;

export const SEARCH = `query Search(
  $query: String!, $first: Int!, $after: String, $filters: [ProductFilter!], ${CONTEXT_VARS}
) ${IN_CONTEXT} {
  search(query: $query, first: $first, after: $after, types: [PRODUCT], productFilters: $filters) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { ... on Product { ${PRODUCT} } }
  }
}`;

/** Browsing without text: the products query with Shopify's search syntax for the filters. */
export const BROWSE = `query Browse($query: String, $first: Int!, $after: String, ${CONTEXT_VARS}) ${IN_CONTEXT} {
  products(query: $query, first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes { ${PRODUCT} }
  }
}`;

export const NODES = `query Nodes($ids: [ID!]!, ${DETAIL_VARS}) ${IN_CONTEXT} {
  nodes(ids: $ids) {
    __typename
    ... on Product { ${PRODUCT_DETAIL} }
    ... on ProductVariant { id product { ${PRODUCT_DETAIL} } }
  }
}`;

export const PRODUCT_BY_HANDLE = `query ProductByHandle($handle: String!, ${DETAIL_VARS}) ${IN_CONTEXT} {
  product(handle: $handle) { ${PRODUCT_DETAIL} }
}`;

const LOCATION_ADDRESS = 'address { address1 address2 city provinceCode countryCode zip phone }';

/** The shop's locations that offer local pickup (the Storefront `locations` lists only those). */
export const LOCATIONS = `query Locations($after: String, $country: CountryCode, $language: LanguageCode) ${IN_CONTEXT} {
  locations(first: 250, after: $after) { pageInfo { hasNextPage endCursor } nodes { id name ${LOCATION_ADDRESS} } }
}`;

const ALLOCATION = `discountedAmount { ${MONEY} } targetType
  ... on CartCodeDiscountAllocation { code }
  ... on CartAutomaticDiscountAllocation { title }`;

const DELIVERY_GROUP = `
  id
  cartLines(first: 250) { nodes { id } }
  deliveryOptions { handle code title description deliveryMethodType estimatedCost { ${MONEY} } }
  selectedDeliveryOption { handle }
  discountAllocations { ${ALLOCATION} }`;

/** The cart's fields, its delivery groups selected with `group` (their fields, or a spread of the fragment of them). */
const cartFields = (group: string) => `
  id checkoutUrl
  buyerIdentity { email countryCode }
  attributes { key value }
  discountCodes { code applicable }
  discountApplications {
    allocationMethod targetType
    ... on CartCodeDiscountApplication { code }
    ... on CartAutomaticDiscountApplication { title }
  }
  lines(first: 250) {
    nodes {
      id quantity
      attributes { key value }
      merchandise {
        ... on ProductVariant {
          id title sku requiresShipping currentlyNotInStock availableForSale quantityAvailable
          image { url }
          product { id title }
          selectedOptions { name value }
          storeAvailability(first: 20) { nodes { available quantityAvailable pickUpTime location { id name ${LOCATION_ADDRESS} } } }
        }
      }
      cost { amountPerQuantity { ${MONEY} } subtotalAmount { ${MONEY} } }
      discountAllocations(lineLevelOnly: false) { ${ALLOCATION} }
    }
  }
  deliveryGroups(first: 10) { nodes { ${group} } }
  cost { subtotalAmount { ${MONEY} } totalAmount { ${MONEY} } }`;

const CART = cartFields(DELIVERY_GROUP);

const CART_CONTEXT_VARS = '$country: CountryCode, $language: LanguageCode';

/**
 * The delivery groups with carrier-calculated rates, as `carrierGroups`: `withCarrierRates`
 * "requires mandatory usage of the @defer directive" (2026-10 schema); without it only static rates
 * are listed.
 */
const carrierGroups = (directives = '@defer', group = DELIVERY_GROUP) =>
  `... ${directives} { carrierGroups: deliveryGroups(first: 10, withCarrierRates: true) { nodes { ${group} } } }`;

const PAYLOAD_ERRORS = 'userErrors { field message code } warnings { code message target }';

/**
 * A mutation's payload. The cart's carrier-rate groups follow in a deferred part of the same answer
 * when the variable `flag` is true (Shopify documents `@defer` in a `cartCreate` payload:
 * shopify.dev/docs/apps/build/discounts/network-access-in-cart), so no second read is needed.
 */
const payload = (flag: string, cart = CART, group = DELIVERY_GROUP) =>
  `cart { ${cart} ${carrierGroups(`@defer @include(if: $${flag})`, group)} } ${PAYLOAD_ERRORS}`;

/**
 * CART_SYNC selects the cart seven times: with the cart and its delivery groups as named fragments
 * its text is 5 kB instead of 17 kB, serialized and sent on every call (2026-11-28: 45-65 µs less
 * adapter CPU per CartSync call, against 2-9 µs between identical builds).
 */
const syncPayload = (flag: string) => payload(flag, '...SyncCart', '...SyncDeliveryGroup');
const SYNC_FRAGMENTS = `fragment SyncCart on Cart { ${cartFields('...SyncDeliveryGroup')} }
fragment SyncDeliveryGroup on CartDeliveryGroup { ${DELIVERY_GROUP} }`;

export const CART_QUERY = `query Cart($id: ID!, ${CART_CONTEXT_VARS}) ${IN_CONTEXT} {
  cart(id: $id) { ${CART} }
}`;

/** The carrier-rate groups alone: read again while Shopify still calculates them. */
export const CART_DELIVERY = `query CartDelivery($id: ID!, ${CART_CONTEXT_VARS}) ${IN_CONTEXT} {
  cart(id: $id) { id ${carrierGroups()} }
}`;

/** CART_QUERY with the carrier-rate groups too: an unchanged cart in one read. */
export const CART_QUERY_CARRIER = `query CartWithCarrierRates($id: ID!, ${CART_CONTEXT_VARS}) ${IN_CONTEXT} {
  cart(id: $id) { ${CART} ${carrierGroups()} }
}`;

export const CART_CREATE = `mutation CartCreate($input: CartInput!, $rates: Boolean = false, ${CART_CONTEXT_VARS}) ${IN_CONTEXT} {
  cartCreate(input: $input) { ${payload('rates')} }
}`;

/** The steps of CART_SYNC, in the order Shopify runs them. */
export const SYNC_STEPS = ['buyer', 'remove', 'update', 'add', 'codes', 'addresses', 'options'] as const;

/**
 * Brings a cart to the wanted state in one request: each step runs only when something changed
 * (`@include`), in this order, and each answers with the cart as it then is; `$<step>Rates` adds
 * the carrier-rate groups to that step's cart (the last step's only: each read asks the carriers).
 */
export const CART_SYNC = `mutation CartSync(
  $cartId: ID!,
  $buyer: CartBuyerIdentityInput!, $doBuyer: Boolean!,
  $remove: [ID!]!, $doRemove: Boolean!,
  $update: [CartLineUpdateInput!]!, $doUpdate: Boolean!,
  $add: [CartLineInput!]!, $doAdd: Boolean!,
  $codes: [String!]!, $doCodes: Boolean!,
  $addresses: [CartSelectableAddressInput!]!, $doAddresses: Boolean!,
  $options: [CartSelectedDeliveryOptionInput!]!, $doOptions: Boolean!,
  ${SYNC_STEPS.map((step) => `$${step}Rates: Boolean = false`).join(', ')},
  ${CART_CONTEXT_VARS}
) ${IN_CONTEXT} {
  buyer: cartBuyerIdentityUpdate(cartId: $cartId, buyerIdentity: $buyer) @include(if: $doBuyer) { ${syncPayload('buyerRates')} }
  remove: cartLinesRemove(cartId: $cartId, lineIds: $remove) @include(if: $doRemove) { ${syncPayload('removeRates')} }
  update: cartLinesUpdate(cartId: $cartId, lines: $update) @include(if: $doUpdate) { ${syncPayload('updateRates')} }
  add: cartLinesAdd(cartId: $cartId, lines: $add) @include(if: $doAdd) { ${syncPayload('addRates')} }
  codes: cartDiscountCodesUpdate(cartId: $cartId, discountCodes: $codes) @include(if: $doCodes) { ${syncPayload('codesRates')} }
  addresses: cartDeliveryAddressesReplace(cartId: $cartId, addresses: $addresses) @include(if: $doAddresses) {
    ${syncPayload('addressesRates')}
  }
  options: cartSelectedDeliveryOptionsUpdate(cartId: $cartId, selectedDeliveryOptions: $options) @include(if: $doOptions) {
    ${syncPayload('optionsRates')}
  }
}
${SYNC_FRAGMENTS}`;

/**
 * Whether refused merchandise exists and is for sale here: since 2025-10 Shopify refuses a sold-out,
 * unpublished or unknown variant alike with MERCHANDISE_NOT_APPLICABLE.
 */
export const VARIANT_AVAILABILITY = `query VariantAvailability($ids: [ID!]!, ${CART_CONTEXT_VARS}) ${IN_CONTEXT} {
  nodes(ids: $ids) { ... on ProductVariant { id availableForSale } }
}`;

export const CART_ATTRIBUTES = `mutation CartAttributes($cartId: ID!, $attributes: [AttributeInput!]!) {
  cartAttributesUpdate(cartId: $cartId, attributes: $attributes) {
    cart { id checkoutUrl attributes { key value } }
    userErrors { field message code }
  }
}`;

// ---------------------------------------------------------------- Admin

export const SHOP = `query Shop { shop { id name currencyCode } }`;

export const API_VERSIONS = `query ApiVersions { publicApiVersions { handle supported } }`;

export const VARIANTS_BY_SKU = `query VariantsBySku($query: String!) {
  productVariants(first: 250, query: $query) { nodes { id sku product { id } } }
}`;

/** The buyer's currency (the order's presentment currency). */
const ADMIN_MONEY = `presentmentMoney { ${MONEY} }`;

const ORDER = `
  id name createdAt updatedAt cancelledAt presentmentCurrencyCode statusPageUrl taxesIncluded displayFinancialStatus cartToken
  customAttributes { key value }
  tags
  shippingAddress { firstName lastName address1 address2 city provinceCode countryCodeV2 zip phone }
  lineItems(first: 250) {
    nodes {
      id title variantTitle sku quantity currentQuantity unfulfilledQuantity requiresShipping
      customAttributes { key value }
      variant { id }
      product { id }
      image { url }
      originalUnitPriceSet { ${ADMIN_MONEY} }
      originalTotalSet { ${ADMIN_MONEY} }
      discountAllocations { allocatedAmountSet { ${ADMIN_MONEY} } }
    }
  }
  shippingLines(first: 5) { nodes { title originalPriceSet { ${ADMIN_MONEY} } } }
  fulfillments(first: 50) {
    id createdAt updatedAt displayStatus
    trackingInfo(first: 5) { company number url }
    fulfillmentLineItems(first: 250) { nodes { quantity lineItem { id } } }
    events(first: 50) { nodes { id status happenedAt message } }
  }
  refunds(first: 50) {
    id createdAt note
    totalRefundedSet { ${ADMIN_MONEY} }
    refundLineItems(first: 250) { nodes { quantity lineItem { id } } }
  }
  subtotalPriceSet { ${ADMIN_MONEY} }
  totalDiscountsSet { ${ADMIN_MONEY} }
  totalShippingPriceSet { ${ADMIN_MONEY} }
  taxLines { title priceSet { ${ADMIN_MONEY} } }
  totalTaxSet { ${ADMIN_MONEY} }
  totalPriceSet { ${ADMIN_MONEY} }`;

export const ORDER_QUERY = `query Order($id: ID!) { order(id: $id) { ${ORDER} } }`;

const DRAFT = `id name status totalPriceSet { ${ADMIN_MONEY} } order { id statusPageUrl }`;

/**
 * What the gateway placed for a checkout reference: the order tagged with it, and the draft orders
 * tagged with it (a COMPLETED one's `order` is the order even when the order search misses it).
 */
export const ORDER_BY_REFERENCE = `query OrderByReference($tag: String!) {
  orders(first: 1, query: $tag) { nodes { id statusPageUrl } }
  draftOrders(first: 5, query: $tag) { nodes { ${DRAFT} } }
}`;

/**
 * The order placed from a cart (`cart_token`, a search field of `orders`): a handed-off checkout's
 * order, found by the cart the gateway handed over whatever else it carries.
 */
export const ORDER_BY_CART = `query OrderByCart($query: String!) {
  orders(first: 1, query: $query) { nodes { id statusPageUrl cartToken } }
}`;

/**
 * The newest orders with their note attributes: a handed-off checkout's order carries the reference
 * only there, and Admin order search has no field for note attributes.
 */
export const RECENT_ORDERS = `query RecentOrders {
  orders(first: 100, sortKey: CREATED_AT, reverse: true) { nodes { id statusPageUrl customAttributes { key value } } }
}`;

/** Tax as Shopify's checkout will charge it, for a cart's lines, codes, address and shipping. */
export const DRAFT_ORDER_CALCULATE = `mutation DraftOrderCalculate($input: DraftOrderInput!) {
  draftOrderCalculate(input: $input) {
    calculatedDraftOrder {
      taxesIncluded
      taxLines { title priceSet { ${ADMIN_MONEY} } }
      totalTaxSet { ${ADMIN_MONEY} }
      totalPriceSet { ${ADMIN_MONEY} }
    }
    userErrors { field message }
  }
}`;

export const DRAFT_ORDER_CREATE = `mutation DraftOrderCreate($input: DraftOrderInput!) {
  draftOrderCreate(input: $input) { draftOrder { ${DRAFT} } userErrors { field message } }
}`;

export const DRAFT_ORDER_COMPLETE = `mutation DraftOrderComplete($id: ID!) {
  draftOrderComplete(id: $id) { draftOrder { ${DRAFT} } userErrors { field message } }
}`;

export const WEBHOOK_SUBSCRIPTIONS = `query WebhookSubscriptions($after: String) {
  webhookSubscriptions(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { id topic uri } }
}`;

export const WEBHOOK_SUBSCRIPTION_CREATE = `mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

/** Every document with the API it goes to, for the schema test. */
export const DOCUMENTS = {
  storefront: {
    SEARCH,
    BROWSE,
    NODES,
    PRODUCT_BY_HANDLE,
    LOCATIONS,
    CART_QUERY,
    CART_QUERY_CARRIER,
    CART_DELIVERY,
    CART_CREATE,
    CART_SYNC,
    VARIANT_AVAILABILITY,
    CART_ATTRIBUTES,
  },
  admin: {
    SHOP,
    API_VERSIONS,
    VARIANTS_BY_SKU,
    ORDER_QUERY,
    ORDER_BY_REFERENCE,
    ORDER_BY_CART,
    RECENT_ORDERS,
    DRAFT_ORDER_CALCULATE,
    DRAFT_ORDER_CREATE,
    DRAFT_ORDER_COMPLETE,
    WEBHOOK_SUBSCRIPTIONS,
    WEBHOOK_SUBSCRIPTION_CREATE,
  },
} as const;

/**
 * The backend adapter contract (v2): what the gateway asks of any store.
 *
 * Adapters speak normalized commerce, never the protocol: no envelope, no messages, no
 * JSONPaths. Capabilities (src/capabilities) turn these shapes into protocol objects.
 * Every amount is an integer in the minor unit of its currency (USD cents, JPY yen, KWD fils).
 * Ids of products, variants, options, locations and orders are the store's own; ids of lines,
 * fulfillment methods, destinations and groups are the gateway's (echoed back unchanged), except
 * order lines, which may carry the store's own ids (see `OrderLine`).
 *
 * v2 in one paragraph: a cart or checkout keeps the store's own cart through an opaque `handle`
 * (returned by `quote`, handed back on every later call); the store's checkout page comes from
 * the store (`checkoutUrl`, async, carrying the gateway's reference); a checkout finishes in one
 * of three declared modes (`capabilities.finishing`); orders placed on the store after a handoff
 * reach the gateway as verified `BackendEvent`s or through `ordersChangedSince`; what a store
 * cannot say is a declared optional capability with a documented gateway fallback.
 * docs/adapter-contract.md maps each method onto the Shopify, WooCommerce and REST calls behind it.
 *
 * This file is the one entry: importers name `adapters/contract.js`, never a file of `contract/`,
 * where the contract lives by domain:
 * - shared.ts: money, postal addresses, the request behind a call;
 * - capabilities.ts: what the adapter can do and its finishing modes;
 * - catalog.ts: products, search, lookup, pickup locations, fulfillment discovery;
 * - buyer.ts: contact, verified identity, eligibility, the store's customer login;
 * - quote.ts: the quote request, the quote, the store's checkout page;
 * - orders.ts: placing an order, the order snapshot;
 * - events.ts: webhooks, polled order changes, catalog changes;
 * - errors.ts: what adapters throw;
 * - adapter.ts: the `Adapter` interface itself;
 * - store.ts: the gateway's state store as an adapter sees it;
 * - setup.ts: what a store says about its own setup (API version, webhooks), for operators' checks.
 */
export * from './contract/shared.js';
export * from './contract/capabilities.js';
export * from './contract/catalog.js';
export * from './contract/buyer.js';
export * from './contract/quote.js';
export * from './contract/orders.js';
export * from './contract/events.js';
export * from './contract/errors.js';
export * from './contract/adapter.js';
export * from './contract/store.js';
export * from './contract/setup.js';

/**
 * The protocol operations every adapter bench and call-count test drives, the same for every
 * store: search (new and repeated), create_cart, create_checkout with a destination, selecting a
 * rate, get_checkout and complete_checkout in the tenant's finishing mode. Each operation is a
 * `prepare` (setup that is not measured: a fresh checkout to update or complete) answering the
 * measured request.
 */
import { randomUUID } from 'node:crypto';
import { choosingFirstOptions } from '../checkout-bodies.js';

const CHICAGO = {
  first_name: 'Ann',
  last_name: 'Lee',
  street_address: '233 S Wacker Dr',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60606',
};
const BUYER = { email: 'bench@example.com', first_name: 'Ann', last_name: 'Lee' };
const SANDBOX_PAYMENT = {
  instruments: [
    { id: 'i1', handler_id: 'sandbox', type: 'card', selected: true, credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' } },
  ],
};

type Line = { item: { id: string }; quantity: number };

/** A protocol client that sends each request with its own Request-Id (the probe's key) and Idempotency-Key. */
export class GatewayClient {
  constructor(
    readonly origin: string,
    private readonly agent: string,
  ) {}

  /** Sends one request; `id` is its Request-Id. Fails on an error answer. */
  async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, id: string = randomUUID()): Promise<any> {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'proto-agent': this.agent, 'request-id': id, 'idempotency-key': id },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as any;
    if (response.status >= 300 || json?.status === 'error')
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json).slice(0, 400)}`);
    return json;
  }
}

/** One measured request: send it with the given Request-Id. */
export type Send = (id: string) => Promise<unknown>;

export interface Operation {
  name: string;
  /** Unmeasured setup for the `i`th request; answers the request to measure. */
  prepare(client: GatewayClient, i: number): Promise<Send>;
  /** Can be sent many times at a fixed rate with one setup (no state consumed per request). */
  repeatable: boolean;
  /** How many requests it makes before asking the same again (absent: no limit). */
  distinct?: number;
}

export interface ScenarioOptions {
  lines: Line[];
  /** `gateway_charged` completes with the sandbox handler; `handoff` answers the store's page. */
  finishing: 'gateway_charged' | 'handoff';
  /** Search words, the first one repeated for the cached search. */
  queries: string[];
}

function createCheckout(client: GatewayClient, lines: Line[], id?: string): Promise<any> {
  return client.call(
    'POST',
    '/checkout-sessions',
    {
      line_items: lines,
      buyer: BUYER,
      discounts: { codes: ['10OFF'] },
      fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] },
    },
    id,
  );
}

function chooseRate(client: GatewayClient, checkout: any, id?: string): Promise<any> {
  const body = { ...choosingFirstOptions(checkout), buyer: BUYER, discounts: { codes: ['10OFF'] } };
  return client.call('PUT', `/checkout-sessions/${checkout.id}`, body, id);
}

/** Page sizes of the uncached search: 11 to 49, under the default page cap of 50 and not the cached row's 10. */
const SEARCH_SIZES = 39;

export function scenario(options: ScenarioOptions): Operation[] {
  const { lines, queries } = options;
  let searches = 0;
  const ready = (client: GatewayClient) => createCheckout(client, lines).then((c) => chooseRate(client, c));
  return [
    {
      name: 'search_catalog',
      repeatable: false,
      // A query not asked before (the word and page size together: each size, then the next word), so the store is asked.
      distinct: SEARCH_SIZES * queries.length,
      prepare: async (client) => {
        const n = searches++;
        const query = queries[Math.floor(n / SEARCH_SIZES) % queries.length];
        return (id) => client.call('POST', '/catalog/search', { query, pagination: { limit: 11 + (n % SEARCH_SIZES) } }, id);
      },
    },
    {
      name: 'search_catalog (cached)',
      repeatable: true,
      // Asked once unmeasured just before, so the measured one is the repeat, whatever the cache's lifetime.
      prepare: async (client) => {
        const body = { query: queries[0], pagination: { limit: 10 } };
        await client.call('POST', '/catalog/search', body);
        return (id) => client.call('POST', '/catalog/search', body, id);
      },
    },
    {
      name: 'create_cart',
      repeatable: true,
      prepare: async (client) => (id) => client.call('POST', '/carts', { line_items: lines, discounts: { codes: ['10OFF'] } }, id),
    },
    { name: 'create_checkout', repeatable: true, prepare: async (client) => (id) => createCheckout(client, lines, id) },
    {
      name: 'update_checkout (select a rate)',
      repeatable: false,
      prepare: async (client) => {
        const created = await createCheckout(client, lines);
        return (id) => chooseRate(client, created, id);
      },
    },
    {
      name: 'get_checkout',
      repeatable: true,
      prepare: async (client) => {
        const checkout = await ready(client);
        return (id) => client.call('GET', `/checkout-sessions/${checkout.id}`, undefined, id);
      },
    },
    {
      name: `complete_checkout (${options.finishing})`,
      repeatable: false,
      prepare: async (client) => {
        const checkout = await ready(client);
        const body = options.finishing === 'gateway_charged' ? { payment: SANDBOX_PAYMENT } : {};
        return (id) => client.call('POST', `/checkout-sessions/${checkout.id}/complete`, body, id);
      },
    },
  ];
}

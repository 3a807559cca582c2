/**
 * The adapter contract suite (issue 13, deliverable 2): one set of tests every adapter runs against
 * its own backend simulator. An adapter's test file calls
 *
 *   runAdapterContract('shopify', async () => ({ adapter, fixtures, controls, close }));
 *
 * where the factory starts the simulator and builds the adapter on it, once per `describe` block
 * (each block gets a fresh simulator, so blocks never see each other's carts or orders).
 *
 * `adapter`   the adapter under test, unwrapped: the suite wraps it in the gateway's resilient
 *             wrapper itself (src/tenancy/resilient-adapter.ts, with a short deadline), so backend
 *             faults are judged the way the gateway sees them: retried, then a clear protocol error.
 * `fixtures`  names the simulator's data the suite uses (`ContractFixtures`); every simulator
 *             serves the demo flower shop of config/demo, so most values are the same everywhere.
 * `controls`  drives the simulator from outside (`SimulatorControls`): fail the next N backend
 *             calls (429 + Retry-After, 5xx, garbage, a hang), pay a handed-off checkout on the
 *             store as the buyer would, change an order on the store and hand back the signed
 *             webhook the store sends (headers + raw body) for `verifyWebhook`.
 * `close`     stops the simulator.
 *
 * What runs depends on what the adapter declares: lookup by SKU / handle only with `lookupKeys`,
 * each finishing mode in `capabilities.finishing`, eligibility only with `verifyEligibility`,
 * webhooks or polling (`ordersChangedSince`) as the store offers. Rejection reasons are only
 * compared when `capabilities.rejectionReasons` is true.
 *
 * Real platform adapters drive real simulator servers (HTTP); the memory adapter's controls wrap
 * the adapter object in-process (test/adapters/memory/contract.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BackendError,
  InvalidPageTokenError,
  type Adapter,
  type BuyerContact,
  type DiscountRejection,
  type EligibilityBuyer,
  type PaymentCredential,
  type PostalAddress,
} from '../../../adapters/contract.js';
import { resilientAdapter, type BackendPolicy } from '../../../src/tenancy/resilient-adapter.js';

/** The simulator's data the suite relies on. */
export interface ContractFixtures {
  /** The store's presentment currency (its first). */
  currency: string;
  /** Free text matching at least three products, so paging by two has a second page. */
  searchText: string;
  /** A product with option axes (e.g. the florist tee: Size x Color) and one of its buyable variants. */
  product: { id: string; optionNames: string[]; variantId: string };
  /** Present when the adapter declares the lookup key. */
  sku?: { value: string; variantId: string };
  handle?: { value: string; productId: string };
  /** A shippable, in-stock variant and a quantity the store can sell. */
  line: { variantId: string; quantity: number };
  /** A code the store applies to `line`, and one it refuses (with the reason, when it gives reasons). */
  codes: { accepted: string; rejected: string; rejectedReason?: DiscountRejection };
  /** An address the store ships `line` to, with at least one shipping option. */
  shippingAddress: PostalAddress;
  buyer: BuyerContact & { email: string };
  /** gateway_charged: the handler id the gateway's capture is recorded under. */
  gatewayHandlerId?: string;
  /** store_charged: a credential the store charges, and one it declines. */
  storeCharged?: { handlerId: string; accepted: PaymentCredential; declined: PaymentCredential };
  /** With `verifyEligibility`: a claim the store prices, a buyer it verifies for it and one it does not. */
  eligibility?: { claim: string; eligible: EligibilityBuyer; ineligible: EligibilityBuyer };
}

/** What the backend does to the next calls (`SimulatorControls.failNext`). */
export type BackendFault =
  /** 429 with Retry-After (Shopify: a THROTTLED GraphQL answer). */
  | 'throttle'
  /** 500 / 502 / 503 from the store. */
  | 'server_error'
  /** 200 with a body that is not what the store's API answers (HTML, truncated JSON, wrong types). */
  | 'garbage'
  /** Accepts the request and never answers. */
  | 'hang';

/** A webhook as the store sends it: verify it with `adapter.verifyWebhook(headers, body)`. */
export interface SignedDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

export interface SimulatorControls {
  /** The next `count` (default 1) backend calls, whatever they are, fail with `fault`. */
  failNext(fault: BackendFault, count?: number): void;
  /** Clears pending faults. */
  reset(): void;
  /**
   * The buyer pays a handed-off checkout on the store's own checkout page (`url` from
   * `checkoutUrl`, with the reference and handle it was made for), shipping to `address`. The
   * store places the order carrying the reference. Returns the store's order id and the
   * "order created" webhook the store sends (null for a store without webhooks: poll instead).
   */
  payHandoff(handoff: { url: string; reference: string; handle?: string; address: PostalAddress; buyer: BuyerContact & { email: string } }): Promise<{
    orderId: string;
    delivery: SignedDelivery | null;
  }>;
  /** The merchant ships the whole order on the store; returns the webhook the store sends (null: poll). */
  shipOrder(orderId: string): Promise<SignedDelivery | null>;
  /** A verified-but-empty delivery (WooCommerce's ping on webhook creation), or null when the store sends none. */
  pingDelivery(): SignedDelivery | null;
}

export interface ContractSubject {
  adapter: Adapter;
  fixtures: ContractFixtures;
  controls: SimulatorControls;
  close(): Promise<void>;
}

export type ContractFactory = () => Promise<ContractSubject>;

/** Short deadlines, so a hang is judged quickly; enough attempts to outlast one throttled answer. */
export const SUITE_POLICY: BackendPolicy = { timeoutMs: 300, attempts: 3, baseDelayMs: 1, maxDelayMs: 50 };

/** One fresh simulator per describe block, with the adapter wrapped as the gateway wraps it. */
function subject(factory: ContractFactory): () => ContractSubject & { gateway: Adapter } {
  let current: (ContractSubject & { gateway: Adapter }) | undefined;
  beforeAll(async () => {
    const made = await factory();
    current = { ...made, gateway: resilientAdapter(made.adapter, SUITE_POLICY) };
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (!current) throw new Error('the contract subject was not built');
    return current;
  };
}

export function runAdapterContract(name: string, factory: ContractFactory): void {
  describe(`adapter contract: ${name}`, () => {
    describe('catalog', () => {
      const get = subject(factory);

      it('declares a consistent set of capabilities', () => {
        const { adapter } = get();
        expect(adapter.capabilities.finishing.length).toBeGreaterThan(0);
        expect(adapter.capabilities.currencies.length).toBeGreaterThan(0);
        expect(Boolean(adapter.discoverFulfillment)).toBe(adapter.capabilities.fulfillmentDiscovery);
        expect(adapter.storefrontUrl).toMatch(/^https?:\/\//);
      });

      it('searches by text and pages with an opaque token', async () => {
        const { gateway, fixtures } = get();
        const first = await gateway.search({ text: fixtures.searchText, limit: 2 });
        expect(first.products).toHaveLength(2);
        expect(first.nextPageToken).toEqual(expect.any(String));
        const second = await gateway.search({ text: fixtures.searchText, limit: 2, pageToken: first.nextPageToken! });
        expect(second.products.length).toBeGreaterThan(0);
        const firstIds = first.products.map((p) => p.id);
        expect(second.products.map((p) => p.id).filter((id) => firstIds.includes(id))).toEqual([]);
      });

      it('refuses a page token it did not issue for the query', async () => {
        const { gateway, fixtures } = get();
        const first = await gateway.search({ text: fixtures.searchText, limit: 2 });
        await expect(gateway.search({ text: `${fixtures.searchText} zzz`, limit: 2, pageToken: first.nextPageToken! })).rejects.toBeInstanceOf(
          InvalidPageTokenError,
        );
      });

      it('looks up product and variant ids, and ignores unknown ones', async () => {
        const { gateway, fixtures } = get();
        const found = await gateway.lookup([fixtures.product.id, fixtures.line.variantId, 'no-such-id-anywhere']);
        const inputs = found.flatMap((r) => r.inputs);
        expect(inputs.find((i) => i.id === fixtures.product.id)).toMatchObject({ match: 'featured' });
        expect(inputs.find((i) => i.id === fixtures.line.variantId)).toMatchObject({ variantId: fixtures.line.variantId, match: 'exact' });
        expect(inputs.find((i) => i.id === 'no-such-id-anywhere')).toBeUndefined();
      });

      it('looks up the declared keys (SKU, handle)', async () => {
        const { gateway, fixtures, adapter } = get();
        const keys = adapter.capabilities.lookupKeys;
        if (keys.includes('sku')) {
          const [found] = await gateway.lookup([fixtures.sku!.value]);
          expect(found!.inputs).toEqual([{ id: fixtures.sku!.value, variantId: fixtures.sku!.variantId, match: 'exact' }]);
        }
        if (keys.includes('handle')) {
          const [found] = await gateway.lookup([fixtures.handle!.value]);
          expect(found!.product.id).toBe(fixtures.handle!.productId);
          expect(found!.inputs[0]).toMatchObject({ id: fixtures.handle!.value, match: 'featured' });
        }
      });

      it('details a product with its option axes and every variant that exists', async () => {
        const { gateway, fixtures } = get();
        const [found] = await gateway.lookup([fixtures.product.id]);
        const product = found!.product;
        expect(product.options.map((o) => o.name)).toEqual(fixtures.product.optionNames);
        const variant = product.variants.find((v) => v.id === fixtures.product.variantId)!;
        expect(variant.options.map((o) => o.name)).toEqual(fixtures.product.optionNames);
        for (const v of product.variants) {
          for (const option of v.options) expect(product.options.find((o) => o.name === option.name)!.values).toContain(option.value);
          expect(Number.isInteger(v.price.amount)).toBe(true);
        }
        expect(product.variants.map((v) => v.id)).toContain(product.featuredVariantId);
      });
    });
  });
}

/** A backend failure as the gateway answers it (see src/transports/error-mapping.ts). */
export function isBackendFailure(error: unknown): error is BackendError {
  return error instanceof BackendError;
}

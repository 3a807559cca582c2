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
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidPageTokenError,
  type Adapter,
  type BackendEvent,
  type BuyerContact,
  type DiscountRejection,
  type EligibilityBuyer,
  type PaymentCredential,
  type PlaceOrderResult,
  type PostalAddress,
  type Quote,
  type QuoteRequest,
} from '../../../adapters/contract.js';
import type { BackendPolicy } from '../../../src/config/backend-policy.js';
import { resilientAdapter } from '../../../src/tenancy/resilient-adapter.js';
import { toProtocolError } from '../../../src/transports/error-mapping.js';

/** The simulator's data the suite relies on. */
export interface ContractFixtures {
  /** The store's presentment currency (its first). */
  currency: string;
  /** Free text matching at least three products, so paging by two has a second page. */
  searchText: string;
  /** A product with option axes (e.g. the florist tee: Size x Color) and one of its buyable variants. */
  product: {
    id: string;
    optionNames: string[];
    variantId: string;
    /** The store keeps no order of a product's option axes (Medusa): the names are compared as a set. */
    axesUnordered?: boolean;
  };
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
  /**
   * store_charged: a credential the store charges, and one it declines; `challenge`, one whose
   * charge the store asks the buyer to confirm on its own page (3-D Secure), when it has such.
   */
  storeCharged?: { handlerId: string; accepted: PaymentCredential; declined: PaymentCredential; challenge?: PaymentCredential };
  /** With `verifyEligibility`: a claim the store prices, a buyer it verifies for it and one it does not. */
  eligibility?: { claim: string; eligible: EligibilityBuyer; ineligible: EligibilityBuyer };
}

/**
 * What a client could write itself from a page token: its JSON (base64url, before any ".") with
 * the first value moved on (the next offset, page number or store cursor), the rest kept.
 */
function forgedFrom(token: string): string {
  const movedOn = (value: unknown): unknown => {
    if (typeof value === 'number') return value + 1;
    if (typeof value === 'string') return `${value}x`;
    if (Array.isArray(value)) return [movedOn(value[0]), ...value.slice(1)];
    if (value && typeof value === 'object') {
      const [key, first] = Object.entries(value)[0] ?? ['offset', 1];
      return { ...value, [key]: movedOn(first) };
    }
    return 1;
  };
  const [data, ...rest] = token.split('.');
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(data!, 'base64url').toString('utf8'));
  } catch {
    payload = { offset: 2 };
  }
  return [Buffer.from(JSON.stringify(movedOn(payload))).toString('base64url'), ...rest].join('.');
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
  payHandoff(handoff: {
    url: string;
    reference: string;
    handle?: string;
    address: PostalAddress;
    buyer: BuyerContact & { email: string };
  }): Promise<{
    orderId: string;
    delivery: SignedDelivery | null;
  }>;
  /**
   * Optional (stores with `storeCharged.challenge`): the buyer acts on the store's page of a
   * `requires_action` placement: `approve`, the store charges and places the order, returning its
   * id and the "order created" webhook (null for a store without webhooks); `fail`, nothing is
   * placed (null).
   */
  confirmPayment?(
    action: { continueUrl: string; reference: string; storeReference?: string },
    outcome: 'approve' | 'fail',
  ): Promise<{ orderId: string; delivery: SignedDelivery | null } | null>;
  /** The merchant ships the whole order on the store; returns the webhook the store sends (null: poll). */
  shipOrder(orderId: string): Promise<SignedDelivery | null>;
  /** A verified-but-empty delivery (WooCommerce's ping on webhook creation), or null when the store sends none. */
  pingDelivery(): SignedDelivery | null;
}

interface ContractSubject {
  adapter: Adapter;
  fixtures: ContractFixtures;
  controls: SimulatorControls;
  close: () => Promise<void>;
}

export type ContractFactory = () => Promise<ContractSubject>;

/** Deadlines short enough to judge a hang in seconds, long enough for a loaded CI machine; attempts outlast one throttle. */
const SUITE_POLICY: BackendPolicy = { timeoutMs: 1_000, attempts: 3, baseDelayMs: 1, maxDelayMs: 50 };
const HANG_DEADLINE_MS = 50;

/** One fresh simulator per describe block, with the adapter wrapped as the gateway wraps it. */
function subject(factory: ContractFactory, policy: BackendPolicy): () => ContractSubject & { gateway: Adapter } {
  let current: (ContractSubject & { gateway: Adapter }) | undefined;
  beforeAll(async () => {
    const made = await factory();
    current = { ...made, gateway: resilientAdapter(made.adapter, policy) };
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (!current) throw new Error('the contract subject was not built');
    return current;
  };
}

/**
 * `policy`: a real server slower than a simulator (Medusa's multi-call carts) gets a longer
 * deadline; every fault is still injected for `policy.attempts` calls.
 */
export function runAdapterContract(name: string, factory: ContractFactory, policy: BackendPolicy = SUITE_POLICY): void {
  describe(`adapter contract: ${name}`, () => {
    describe('catalog', () => {
      const get = subject(factory, policy);

      it('declares a consistent set of capabilities', () => {
        const { adapter } = get();
        expect(adapter.capabilities.finishing.length).toBeGreaterThan(0);
        // A store must tie its orders to checkouts somehow: by the gateway's reference or its own.
        expect(adapter.capabilities.orderLinks ?? ['reference']).not.toEqual([]);
        expect(adapter.capabilities.currencies.length).toBeGreaterThan(0);
        expect(adapter.discoverFulfillment !== undefined).toBe(adapter.capabilities.fulfillmentDiscovery);
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
        await expect(
          gateway.search({ text: `${fixtures.searchText} zzz`, limit: 2, pageToken: first.nextPageToken! }),
        ).rejects.toBeInstanceOf(InvalidPageTokenError);
      });

      it('refuses a page token altered or forged for the same query', async () => {
        const { gateway, fixtures } = get();
        const query = { text: fixtures.searchText, limit: 2 };
        const token = (await gateway.search(query)).nextPageToken!;
        const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        for (const pageToken of [forgedFrom(token), altered, 'bm9wZQ']) {
          await expect(gateway.search({ ...query, pageToken }), pageToken).rejects.toBeInstanceOf(InvalidPageTokenError);
        }
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
        const axes = product.options.map((o) => o.name);
        if (fixtures.product.axesUnordered) expect([...axes].sort()).toEqual([...fixtures.product.optionNames].sort());
        else expect(axes).toEqual(fixtures.product.optionNames);
        // A variant names its options in the product's axis order, whatever order the store keeps.
        for (const v of product.variants) expect(v.options.map((o) => o.name)).toEqual(axes);
        const variant = product.variants.find((v) => v.id === fixtures.product.variantId)!;
        expect(variant.options.map((o) => o.name)).toEqual(axes);
        for (const v of product.variants) {
          for (const option of v.options) expect(product.options.find((o) => o.name === option.name)!.values).toContain(option.value);
          expect(Number.isInteger(v.price.amount)).toBe(true);
        }
        expect(product.variants.map((v) => v.id)).toContain(product.featuredVariantId);
      });
    });

    describe('pricing', () => {
      const get = subject(factory, policy);

      it("prices lines with an accepted and a refused code, in the store's own cart (the handle)", async () => {
        const { gateway, fixtures, adapter } = get();
        const quote = await gateway.quote(quoteRequest(fixtures, { discountCodes: [fixtures.codes.accepted, fixtures.codes.rejected] }));
        expect(quote.currency).toBe(fixtures.currency);
        expect(quote.lines.map((l) => [l.lineId, l.variantId, l.quantity])).toEqual([
          ['l1', fixtures.line.variantId, fixtures.line.quantity],
        ]);
        expect(quote.discounts.applied.filter((d) => d.code?.toUpperCase() === fixtures.codes.accepted.toUpperCase())).toHaveLength(1);
        for (const discount of quote.discounts.applied)
          expect(discount.allocations.reduce((s, a) => s + a.amount, 0)).toBe(discount.amount);
        const [rejected] = quote.discounts.rejected;
        expect(rejected).toMatchObject({ code: fixtures.codes.rejected, index: 1 });
        if (adapter.capabilities.rejectionReasons) expect(rejected!.reason).toBe(fixtures.codes.rejectedReason);
        expectTotalsAddUp(quote);
        const again = await gateway.quote(
          quoteRequest(fixtures, {
            discountCodes: [fixtures.codes.accepted, fixtures.codes.rejected],
            ...(quote.handle && { handle: quote.handle }),
          }),
        );
        expect(again.totals).toEqual(quote.totals);
      });

      it('quotes shipping options for an address; a selected option is priced into the totals', async () => {
        const { gateway, fixtures } = get();
        const open = await gateway.quote(quoteRequest(fixtures, { ship: true }));
        const group = open.fulfillment![0]!.groups[0]!;
        expect(group.lineIds).toEqual(['l1']);
        expect(group.options.length).toBeGreaterThan(0);
        expect(open.totals.shipping).toBeNull();
        const chosen = await gateway.quote(quoteRequest(fixtures, { ship: true, select: open, handle: open.handle }));
        const selected = chosen.fulfillment![0]!.groups[0]!;
        expect(selected.selectedOptionId).toBe(group.options[0]!.id);
        expect(chosen.totals.shipping).toBe(group.options[0]!.amount);
        expectTotalsAddUp(chosen);
      });
    });

    describe('pickup (with capabilities.pickup / locationStock)', () => {
      const get = subject(factory, policy);

      it('lists pickup locations, stock per location, and a free or priced pickup option at one, selected into the totals', async () => {
        const { gateway, fixtures, adapter } = get();
        const locations = await gateway.pickupLocations();
        if (!adapter.capabilities.pickup) {
          expect(locations).toEqual([]);
          return;
        }
        expect(locations.length).toBeGreaterThan(0);
        for (const l of locations)
          expect(l).toMatchObject({
            id: expect.any(String),
            name: expect.any(String),
            address: { country: expect.stringMatching(/^[A-Z]{2}$/) },
          });
        let at = locations[0]!;
        if (adapter.capabilities.locationStock) {
          const [found] = await gateway.lookup([fixtures.line.variantId]);
          const stock = found!.product.variants.find((v) => v.id === fixtures.line.variantId)!.locationStock!;
          expect(stock.every((s) => locations.some((l) => l.id === s.locationId) && Number.isInteger(s.quantity))).toBe(true);
          const stocked = stock.find((s) => s.quantity >= fixtures.line.quantity);
          expect(stocked).toBeDefined();
          at = locations.find((l) => l.id === stocked!.locationId)!;
        }
        const open = await gateway.quote(pickupRequest(fixtures, at.id));
        expect(open.availableMethods.find((m) => m.type === 'pickup')?.lineIds).toEqual(['l1']);
        const group = open.fulfillment![0]!.groups[0]!;
        expect(group.lineIds).toEqual(['l1']);
        expect(group.options.length).toBeGreaterThan(0);
        const chosen = await gateway.quote(pickupRequest(fixtures, at.id, { select: open, handle: open.handle }));
        const selected = chosen.fulfillment![0]!.groups[0]!;
        expect(selected.selectedOptionId).toBe(group.options[0]!.id);
        expect(chosen.totals.shipping).toBe(group.options[0]!.amount);
        expectTotalsAddUp(chosen);
      });
    });

    describe('finishing', () => {
      const get = subject(factory, policy);

      it('gateway_charged: places one order per reference, recorded paid, found by reference and read back', async () => {
        const { gateway, fixtures, adapter } = get();
        if (!adapter.capabilities.finishing.includes('gateway_charged')) return;
        const { request, total } = await readyQuote(gateway, fixtures);
        const reference = `chk_contract_${Date.now()}`;
        const record = { handlerId: fixtures.gatewayHandlerId ?? 'gateway', transactionId: 'tx_contract_1', amount: total };
        const place = () =>
          gateway.placeOrder({
            reference,
            quote: request,
            expectedTotal: total,
            buyer: fixtures.buyer,
            payment: { mode: 'gateway_charged', record },
          });
        const first = await place();
        expect(first).toMatchObject({ status: 'placed', orderId: expect.any(String) });
        const { orderId } = first as { orderId: string };
        expect(await place()).toMatchObject({ status: 'placed', orderId });
        // A store that keeps no reference is asked by its own (placement's `storeReference`, the handle) only.
        const kept = keepsReference(adapter);
        if (kept) expect(await gateway.findOrderByReference(reference)).toMatchObject({ orderId });
        const order = (await gateway.getOrder(orderId))!;
        expect([order.id, order.reference, order.currency, order.totals.total]).toEqual([
          orderId,
          kept ? reference : undefined,
          fixtures.currency,
          total,
        ]);
        expect(order.lines.map((l) => [l.variantId, l.quantity.original])).toEqual([[fixtures.line.variantId, fixtures.line.quantity]]);
      });

      it('gateway_charged: refuses a total the store no longer agrees with', async () => {
        const { gateway, fixtures, adapter } = get();
        if (!adapter.capabilities.finishing.includes('gateway_charged')) return;
        const { request, total } = await readyQuote(gateway, fixtures);
        const record = { handlerId: fixtures.gatewayHandlerId ?? 'gateway', transactionId: 'tx_contract_2', amount: total - 1 };
        const refused = await gateway.placeOrder({
          reference: `chk_contract_low_${Date.now()}`,
          quote: request,
          expectedTotal: total - 1,
          buyer: fixtures.buyer,
          payment: { mode: 'gateway_charged', record },
        });
        expect(refused).toMatchObject({ status: 'rejected', reason: 'price_changed', actualTotal: total });
      });

      it('store_charged: the store charges an accepted credential and declines a bad one', async () => {
        const { gateway, fixtures, adapter } = get();
        if (!adapter.capabilities.finishing.includes('store_charged')) return;
        const { storeCharged } = fixtures;
        const { request, total } = await readyQuote(gateway, fixtures);
        const place = (credential: PaymentCredential, reference: string) =>
          gateway.placeOrder({
            reference,
            quote: request,
            expectedTotal: total,
            buyer: fixtures.buyer,
            payment: { mode: 'store_charged', handlerId: storeCharged!.handlerId, credential },
          });
        expect(await place(storeCharged!.declined, `chk_contract_decl_${Date.now()}`)).toMatchObject({
          status: 'rejected',
          reason: 'payment_declined',
        });
        expect(await place(storeCharged!.accepted, `chk_contract_paid_${Date.now()}`)).toMatchObject({ status: 'placed' });
      });

      it("handoff: the store's page carries the reference (or names the store's); the order placed there reports it", async () => {
        const { gateway, fixtures, adapter, controls } = get();
        if (!adapter.capabilities.finishing.includes('handoff')) return;
        const reference = `chk_contract_handoff_${Date.now()}`;
        const quote = await gateway.quote(quoteRequest(fixtures, {}));
        const page = await gateway.checkoutUrl({
          reference,
          ...(quote.handle && { handle: quote.handle }),
          quote: quoteRequest(fixtures, { handle: quote.handle }),
        });
        expect(page.url).toMatch(/^https?:\/\//);
        const handle = page.handle ?? quote.handle;
        if (!keepsReference(adapter)) expect(page.storeReference).toEqual(expect.any(String));
        const { orderId, delivery } = await controls.payHandoff({
          url: page.url,
          reference,
          ...(handle && { handle }),
          address: fixtures.shippingAddress,
          buyer: fixtures.buyer,
        });
        const links = { ...(page.storeReference && { storeReference: page.storeReference }), ...(handle && { handle }) };
        await expectReported(gateway, adapter, { orderId, delivery, reference, links });
        expect(await gateway.findOrderByReference(reference, undefined, links)).toMatchObject({ orderId });
      });

      it('store_charged: a payment the store asks the buyer to confirm is placed once approved, reported with its links', async () => {
        const { gateway, fixtures, adapter, controls } = get();
        const challenge = fixtures.storeCharged?.challenge;
        if (!adapter.capabilities.finishing.includes('store_charged') || !challenge || !controls.confirmPayment) return;
        const { request, total } = await readyQuote(gateway, fixtures);
        const reference = `chk_contract_challenge_${Date.now()}`;
        const place = (credential: PaymentCredential) =>
          gateway.placeOrder({
            reference,
            quote: request,
            expectedTotal: total,
            buyer: fixtures.buyer,
            payment: { mode: 'store_charged', handlerId: fixtures.storeCharged!.handlerId, credential },
          });
        const asked = await place(challenge);
        expect(asked).toMatchObject({ status: 'requires_action', continueUrl: expect.stringMatching(/^https?:\/\//) });
        const action = asked as Extract<PlaceOrderResult, { status: 'requires_action' }>;
        if (!keepsReference(adapter)) expect(action.storeReference).toEqual(expect.any(String));
        const links = {
          ...(action.storeReference && { storeReference: action.storeReference }),
          ...(request.handle && { handle: request.handle }),
        };
        expect(await gateway.findOrderByReference(reference, undefined, links)).toBeNull();

        const confirmed = (await controls.confirmPayment({ continueUrl: action.continueUrl, reference, ...links }, 'approve'))!;
        await expectReported(gateway, adapter, { ...confirmed, reference, links });
        expect(await gateway.findOrderByReference(reference, undefined, links)).toMatchObject({ orderId: confirmed.orderId });
        // Asked again (a repeated complete), the store answers with the same order.
        expect(await place(fixtures.storeCharged!.accepted)).toMatchObject({ status: 'placed', orderId: confirmed.orderId });
      });

      it('store_charged: a failed challenge places nothing; the reference is then placed with another credential', async () => {
        const { gateway, fixtures, adapter, controls } = get();
        const challenge = fixtures.storeCharged?.challenge;
        if (!adapter.capabilities.finishing.includes('store_charged') || !challenge || !controls.confirmPayment) return;
        const { request, total } = await readyQuote(gateway, fixtures);
        const reference = `chk_contract_failed_${Date.now()}`;
        const place = (credential: PaymentCredential) =>
          gateway.placeOrder({
            reference,
            quote: request,
            expectedTotal: total,
            buyer: fixtures.buyer,
            payment: { mode: 'store_charged', handlerId: fixtures.storeCharged!.handlerId, credential },
          });
        const action = (await place(challenge)) as Extract<PlaceOrderResult, { status: 'requires_action' }>;
        const links = {
          ...(action.storeReference && { storeReference: action.storeReference }),
          ...(request.handle && { handle: request.handle }),
        };
        expect(await controls.confirmPayment({ continueUrl: action.continueUrl, reference, ...links }, 'fail')).toBeNull();
        expect(await gateway.findOrderByReference(reference, undefined, links)).toBeNull();
        const placed = await place(fixtures.storeCharged!.accepted);
        expect(placed).toMatchObject({ status: 'placed', orderId: expect.any(String) });
        // Once: asked again, the store answers with that order.
        expect(await place(fixtures.storeCharged!.accepted)).toEqual(placed);
      });
    });

    describe('orders and backend events', () => {
      const get = subject(factory, policy);

      it('knows nothing of an unknown order', async () => {
        const { gateway } = get();
        expect(await gateway.getOrder('no-such-order-anywhere')).toBeNull();
        expect(await gateway.findOrderByReference('chk_never_placed')).toBeNull();
      });

      it('a change on the store becomes a verified event (or a polled change) and shows in the order', async () => {
        const { gateway, fixtures, adapter, controls } = get();
        const orderId = await someOrder(gateway, fixtures, controls);
        const since = new Date(Date.parse((await gateway.getOrder(orderId))!.createdAt) - 1000).toISOString();
        const delivery = await controls.shipOrder(orderId);
        if (delivery) {
          expect(adapter.verifyWebhook(delivery.headers, delivery.body)).toMatchObject({
            kind: 'order',
            orderId,
            eventId: expect.any(String),
          });
          const forged = { ...delivery.headers };
          for (const name of Object.keys(forged)) if (/signature|hmac/i.test(name)) forged[name] = 'AAAA';
          expect(adapter.verifyWebhook(forged, delivery.body)).toBeNull();
          expect(adapter.verifyWebhook(delivery.headers, Buffer.concat([delivery.body, Buffer.from(' ')]))).toBeNull();
        } else {
          expect((await gateway.ordersChangedSince!(since)).map((c) => c.orderId)).toContain(orderId);
        }
        const order = (await gateway.getOrder(orderId))!;
        const shipped = order.events.filter((e) => e.type === 'shipped');
        expect(shipped.length).toBeGreaterThan(0);
        expect(shipped[0]!.lines.every((l) => order.lines.some((line) => line.id === l.id))).toBe(true);
      });

      it('a ping delivery verifies as a ping', () => {
        const { adapter, controls } = get();
        const ping = controls.pingDelivery();
        if (ping) expect(adapter.verifyWebhook(ping.headers, ping.body)).toMatchObject({ kind: 'ping' });
      });
    });

    describe('backend failures, through the resilient wrapper', () => {
      const get = subject(factory, policy);
      const log = pino({ level: 'silent' });
      const failure = async (call: Promise<unknown>) => {
        const error = await call.then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error, 'the call should fail').toBeDefined();
        const protocol = toProtocolError(error, log);
        return [protocol.status, protocol.code];
      };

      it('backs off a throttled answer and then answers', async () => {
        const { gateway, fixtures, controls } = get();
        controls.failNext('throttle', 1);
        expect((await gateway.search({ text: fixtures.searchText, limit: 2 })).products).toHaveLength(2);
      });

      it('5xx past every retry: 503 backend_unavailable', async () => {
        const { gateway, fixtures, controls } = get();
        controls.failNext('server_error', policy.attempts);
        expect(await failure(gateway.lookup([fixtures.product.id]))).toEqual([503, 'backend_unavailable']);
        controls.reset();
      });

      it('a hang: the deadline ends it, 503 backend_unavailable', async () => {
        const { adapter, fixtures, controls } = get();
        // A hung call never answers, so a short deadline judges it as surely as the suite's long one.
        const gateway = resilientAdapter(adapter, { ...policy, timeoutMs: HANG_DEADLINE_MS });
        controls.failNext('hang', policy.attempts);
        expect(await failure(gateway.quote(quoteRequest(fixtures, {})))).toEqual([503, 'backend_unavailable']);
        controls.reset();
      });

      it('garbage: 503 backend_invalid_response, never a crash further in', async () => {
        const { gateway, fixtures, controls } = get();
        controls.failNext('garbage', policy.attempts);
        expect(await failure(gateway.search({ text: fixtures.searchText, limit: 2 }))).toEqual([503, 'backend_invalid_response']);
        controls.reset();
      });

      it('answers normally once the backend recovers', async () => {
        const { gateway, fixtures } = get();
        expect((await gateway.lookup([fixtures.product.id])).length).toBe(1);
      });
    });
  });
}

/** The fixture line, with codes, and (`ship`) one shipping method to the fixture address, the first option of `select`'s groups chosen. */
/** `fixtures.line` collected at a pickup location, with the first option of an earlier quote selected. */
function pickupRequest(
  fixtures: ContractFixtures,
  locationId: string,
  options: { select?: Quote; handle?: string | undefined } = {},
): QuoteRequest {
  const selectedOptions =
    options.select && Object.fromEntries(options.select.fulfillment![0]!.groups.map((g) => [g.key, g.options[0]!.id]));
  return {
    ...quoteRequest(fixtures, { handle: options.handle }),
    fulfillment: {
      multiGroup: false,
      methods: [
        { methodId: 'm1', type: 'pickup', lineIds: ['l1'], destination: { locationId }, ...(selectedOptions && { selectedOptions }) },
      ],
    },
  };
}

function quoteRequest(
  fixtures: ContractFixtures,
  options: { discountCodes?: string[]; ship?: boolean; select?: Quote; handle?: string | undefined },
): QuoteRequest {
  const selectedOptions =
    options.select && Object.fromEntries(options.select.fulfillment![0]!.groups.map((g) => [g.key, g.options[0]!.id]));
  return {
    ...(options.handle && { handle: options.handle }),
    currency: fixtures.currency,
    lines: [{ lineId: 'l1', variantId: fixtures.line.variantId, quantity: fixtures.line.quantity }],
    buyer: fixtures.buyer,
    discountCodes: options.discountCodes ?? [],
    ...(options.ship && {
      fulfillment: {
        multiGroup: false,
        methods: [
          {
            methodId: 'm1',
            type: 'shipping' as const,
            lineIds: ['l1'],
            destination: { address: fixtures.shippingAddress },
            ...(selectedOptions && { selectedOptions }),
          },
        ],
      },
    }),
  };
}

/** A quote request every group of which has an option selected, and its total. */
async function readyQuote(gateway: Adapter, fixtures: ContractFixtures): Promise<{ request: QuoteRequest; total: number }> {
  const open = await gateway.quote(quoteRequest(fixtures, { ship: true }));
  const request = quoteRequest(fixtures, { ship: true, select: open, handle: open.handle });
  const quote = await gateway.quote(request);
  return { request: quote.handle ? { ...request, handle: quote.handle } : request, total: quote.totals.total };
}

/** An order on the store, placed the way the adapter finishes first. */
async function someOrder(gateway: Adapter, fixtures: ContractFixtures, controls: SimulatorControls): Promise<string> {
  const { request, total } = await readyQuote(gateway, fixtures);
  const reference = `chk_contract_order_${Date.now()}`;
  const buyer = fixtures.buyer;
  const mode = gateway.capabilities.finishing[0];
  if (mode === 'handoff') {
    const page = await gateway.checkoutUrl({ reference, ...(request.handle && { handle: request.handle }), quote: request });
    return (await controls.payHandoff({ url: page.url, reference, address: fixtures.shippingAddress, buyer })).orderId;
  }
  const payment =
    mode === 'store_charged'
      ? { mode, handlerId: fixtures.storeCharged!.handlerId, credential: fixtures.storeCharged!.accepted }
      : {
          mode: 'gateway_charged' as const,
          record: { handlerId: fixtures.gatewayHandlerId ?? 'gateway', transactionId: `tx_${reference}`, amount: total },
        };
  const placed = await gateway.placeOrder({ reference, quote: request, expectedTotal: total, buyer, payment });
  if (placed.status !== 'placed') throw new Error(`the store did not place the order: ${JSON.stringify(placed)}`);
  return placed.orderId;
}

/** Tax the prices contain is never added: `tax` is what is added, `includedTax` the included tax lines' sum. */
function expectTotalsAddUp(quote: Quote): void {
  const { subtotal, itemsDiscount, discount, shipping, tax, includedTax, total } = quote.totals;
  expect(subtotal).toBe(quote.lines.reduce((s, l) => s + l.subtotal, 0));
  expect(total).toBe(subtotal - itemsDiscount - discount + (shipping ?? 0) + (tax ?? 0));
  const included = quote.taxLines.filter((t) => t.included).reduce((s, t) => s + t.amount, 0);
  expect(included).toBe(includedTax ?? 0);
}

const keepsReference = (adapter: Adapter) => (adapter.capabilities.orderLinks ?? ['reference']).includes('reference');

/**
 * An order the store placed on its own page is reported so the gateway can tie it to its checkout:
 * the event (or polled change) or the order carries the reference, or the store reference named
 * for it when the store keeps no reference.
 */
async function expectReported(
  gateway: Adapter,
  adapter: Adapter,
  placed: { orderId: string; delivery: SignedDelivery | null; reference: string; links: { storeReference?: string } },
): Promise<void> {
  const { orderId, delivery, reference, links } = placed;
  const order = (await gateway.getOrder(orderId))!;
  let reported: { reference?: string | undefined; storeReference?: string | undefined };
  if (delivery) {
    const event = adapter.verifyWebhook(delivery.headers, delivery.body);
    expect(event).toMatchObject({ kind: 'order', orderId });
    reported = event as Extract<BackendEvent, { kind: 'order' }>;
  } else {
    const changes = await gateway.ordersChangedSince!(new Date(Date.parse(order.createdAt) - 1000).toISOString());
    reported = changes.find((c) => c.orderId === orderId) ?? {};
  }
  if (keepsReference(adapter)) expect(reported.reference ?? order.reference).toBe(reference);
  else expect(reported.storeReference ?? order.storeReference).toBe(links.storeReference);
}

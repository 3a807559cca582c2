/**
 * store_charged against a Stripe store's payment provider, on the real Medusa server. The example
 * store's card provider keeps of a payment session's `data` only what @medusajs/payment-stripe
 * hands Stripe's PaymentIntent (examples/medusa-store/src/modules/test-card, citing
 * stripe-base.js): a credential anywhere else never reaches the intent, which then stays
 * `requires_payment_method`, and Medusa's cart completion answers "Payment authorization failed".
 * A card that needs 3-D Secure gets Stripe's `next_action.redirect_to_url` (the confirmation names
 * a return_url); the buyer approving on that page makes Stripe's webhook reach Medusa, which
 * authorizes the session and completes the cart itself (core-flows process-payment).
 */
import { describe, expect, it } from 'vitest';
import type { PaymentCredential, PlaceOrderResult, QuoteRequest } from '../../../../adapters/contract.js';
import type { MedusaAdapter } from '../../../../adapters/medusa/index.js';
import type { MedusaSettings } from '../../../../adapters/medusa/settings.js';
import { MEDUSA_PAYMENT_PROVIDERS } from '../../../../scripts/medusa-store.js';
import { medusaCall, medusaStore } from '../../../helpers/medusa-store.js';
import { adapterFor, BUYER, CARD, CHICAGO, lines, medusaCart, medusaOrder, readyQuote, reference, shippingRequest } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

const requests = new Map<string, { request: QuoteRequest; total: number }>();

async function placeWith(
  settings: Partial<MedusaSettings>,
  credential: PaymentCredential,
): Promise<{ adapter: MedusaAdapter; placed: PlaceOrderResult; ref: string; cartId: string }> {
  const adapter = await adapterFor(store!, settings);
  const ref = reference('store_charged');
  const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: lines(store!, { bouquet_roses: 1 }) }, CHICAGO));
  requests.set(ref, { request, total: quote.totals.total });
  const placed = await adapter.placeOrder({
    reference: ref,
    quote: request,
    expectedTotal: quote.totals.total,
    buyer: BUYER,
    payment: { mode: 'store_charged', handlerId: 'store_card', credential },
  });
  return { adapter, placed, ref, cartId: quote.handle! };
}

/** The checkout completed again (another card, or a retry) on the same cart. */
function placeAgain(adapter: MedusaAdapter, ref: string, cartId: string, credential: PaymentCredential): Promise<PlaceOrderResult> {
  const { request, total } = requests.get(ref)!;
  return adapter.placeOrder({
    reference: ref,
    quote: { ...request, handle: cartId },
    expectedTotal: total,
    buyer: BUYER,
    payment: { mode: 'store_charged', handlerId: 'store_card', credential },
  });
}

/** Asks until the answer is not null (Medusa processes a payment webhook after a delay of 5 s). */
async function until<T>(ask: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await ask();
    if (answer !== null) return answer;
    if (Date.now() > deadline) throw new Error(`nothing within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 500));
  }
}

suite("store_charged with a Stripe store's provider (real Medusa server)", () => {
  it('pp_stripe_*: the card goes where payment-stripe reads it; the intent is confirmed and charged, the order placed', async () => {
    const { adapter, placed } = await placeWith({ payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike }, CARD.accepted);
    try {
      expect(placed).toMatchObject({ status: 'placed', orderId: expect.any(String) });
      const order = await medusaOrder(store!, (placed as { orderId: string }).orderId, 'id,payment_status,*payment_collections.payments');
      const [payment] = order.payment_collections[0].payments;
      // The store captures at checkout (the provider's `capture` option): the order is paid.
      expect([order.payment_status, payment.provider_id]).toEqual(['captured', MEDUSA_PAYMENT_PROVIDERS.stripeLike]);
      // The session's data became the PaymentIntent, confirmed with the buyer's payment method.
      expect(payment.data).toMatchObject({ object: 'payment_intent', payment_method: CARD.accepted.token, status: 'succeeded' });
    } finally {
      await adapter.close();
    }
  });

  it('a card the processor declines is payment_declined, and Medusa has no order', async () => {
    const { adapter, placed, ref } = await placeWith({ payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike }, CARD.declined);
    try {
      expect(placed).toMatchObject({ status: 'rejected', reason: 'payment_declined' });
      expect(await adapter.findOrderByReference(ref)).toBeNull();
    } finally {
      await adapter.close();
    }
  });

  it("a card that needs 3-D Secure: the buyer is sent to the issuer's page; approved there, Medusa completes the cart itself", async () => {
    const { adapter, placed, ref, cartId } = await placeWith(
      { payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike },
      CARD.needsAuthentication,
    );
    try {
      // Stripe's next_action.redirect_to_url (the confirmation named a return_url): the page where the buyer authenticates.
      expect(placed).toMatchObject({ status: 'requires_action', storeReference: cartId });
      const { continueUrl } = placed as { continueUrl: string };
      expect(continueUrl).toMatch(new RegExp(`^${store!.url}/test-card/authenticate/pi_test_`));
      // Medusa refused to complete (the session requires more): the cart is open, nothing charged, no order.
      const open = await medusaCart(store!, cartId);
      expect([open.completed_at ?? null, await adapter.findOrderByReference(ref)]).toEqual([null, null]);

      expect((await fetch(continueUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'approve' }) })).status).toBe(200);
      // Stripe's webhook reaches Medusa, which authorizes the session and completes the cart after its webhook delay.
      const found = await until(() => adapter.findOrderByReference(ref));
      // Found by the cart alone too: a gateway that kept no reference -> cart index (another replica's state).
      const elsewhere = await adapterFor(store!, { payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike });
      try {
        expect(await elsewhere.findOrderByReference(ref, undefined, { storeReference: cartId })).toEqual(found);
      } finally {
        await elsewhere.close();
      }
      const order = (await adapter.getOrder(found.orderId))!;
      expect([order.reference, order.storeReference, order.awaitingPayment]).toEqual([ref, cartId, undefined]);
      const medusa = await medusaOrder(store!, found.orderId, 'id,payment_status');
      expect(medusa.payment_status).toBe('captured');
      // A later complete finds the order: the same one, nothing charged again.
      expect(await placeAgain(adapter, ref, cartId, CARD.accepted)).toEqual({ status: 'placed', orderId: found.orderId });
    } finally {
      await adapter.close();
    }
  });

  it('a failed challenge leaves the cart to another card: one order, the abandoned intent canceled', async () => {
    const { adapter, placed, ref, cartId } = await placeWith(
      { payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike },
      CARD.needsAuthentication,
    );
    try {
      const { continueUrl } = placed as { continueUrl: string };
      expect((await fetch(continueUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'fail' }) })).status).toBe(200);
      const again = await placeAgain(adapter, ref, cartId, CARD.accepted);
      expect(again).toMatchObject({ status: 'placed' });
      const orders = await medusaCall(store!, 'admin', 'GET', `/admin/orders?fields=id,metadata&limit=200`);
      expect(
        orders.orders.filter((o: { metadata?: { gateway_reference?: string } }) => o.metadata?.gateway_reference === ref),
      ).toHaveLength(1);
      // The challenge page of the replaced payment no longer confirms anything.
      expect((await fetch(continueUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'approve' }) })).status).toBe(404);
    } finally {
      await adapter.close();
    }
  });

  it('a challenge Stripe.js must run in the storefront (no return_url, no page to send the buyer to) is payment_declined', async () => {
    const settings = { payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike, payment_data: { payment_method: '{token}', confirm: true } };
    const { adapter, placed } = await placeWith(settings, CARD.needsAuthentication);
    try {
      expect(placed).toMatchObject({
        status: 'rejected',
        reason: 'payment_declined',
        detail: expect.stringMatching(/Stripe\.js|storefront/),
      });
    } finally {
      await adapter.close();
    }
  });

  it('the tenant says how its provider reads the credential (payment_data): the same form for another provider id pays', async () => {
    const settings = { payment_provider: MEDUSA_PAYMENT_PROVIDERS.testCard, payment_data: { payment_method: '{token}', confirm: true } };
    const { adapter, placed } = await placeWith(settings, CARD.accepted);
    try {
      expect(placed).toMatchObject({ status: 'placed' });
    } finally {
      await adapter.close();
    }
  });

  it('a form the provider does not read never pays: the credential in `token` reaches no PaymentIntent', async () => {
    const settings = { payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike, payment_data: { token: '{token}', type: '{type}' } };
    const { adapter, placed } = await placeWith(settings, CARD.accepted);
    try {
      expect(placed).toMatchObject({ status: 'rejected', reason: 'payment_declined', detail: expect.stringMatching(/not authorized/i) });
    } finally {
      await adapter.close();
    }
  });

  it('a payment that settles later (processing): Medusa places the order, which then awaits its payment', async () => {
    const { adapter, placed } = await placeWith({ payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike }, CARD.settlesLater);
    try {
      expect(placed).toMatchObject({ status: 'placed' });
      const order = (await adapter.getOrder((placed as { orderId: string }).orderId))!;
      expect(order.awaitingPayment).toBe(true);
    } finally {
      await adapter.close();
    }
  });

  it('a card charged at checkout: the order does not await payment', async () => {
    const { adapter, placed } = await placeWith({ payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike }, CARD.accepted);
    try {
      expect((await adapter.getOrder((placed as { orderId: string }).orderId))!.awaitingPayment).toBeUndefined();
    } finally {
      await adapter.close();
    }
  });
});

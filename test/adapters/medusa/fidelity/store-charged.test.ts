/**
 * store_charged against a Stripe store's payment provider, on the real Medusa server. The example
 * store's card provider keeps of a payment session's `data` only what @medusajs/payment-stripe
 * hands Stripe's PaymentIntent (examples/medusa-store/src/modules/test-card, citing
 * stripe-base.js): a credential anywhere else never reaches the intent, which then stays
 * `requires_payment_method`, and Medusa's cart completion answers "Payment authorization failed".
 */
import { describe, expect, it } from 'vitest';
import type { PaymentCredential, PlaceOrderResult } from '../../../../adapters/contract.js';
import type { MedusaAdapter } from '../../../../adapters/medusa/index.js';
import type { MedusaSettings } from '../../../../adapters/medusa/settings.js';
import { MEDUSA_PAYMENT_PROVIDERS } from '../../../../scripts/medusa-store.js';
import { medusaStore } from '../../../helpers/medusa-store.js';
import { adapterFor, BUYER, CARD, CHICAGO, lines, medusaOrder, readyQuote, reference, shippingRequest } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

async function placeWith(
  settings: Partial<MedusaSettings>,
  credential: PaymentCredential,
): Promise<{ adapter: MedusaAdapter; placed: PlaceOrderResult; ref: string }> {
  const adapter = await adapterFor(store!, settings);
  const ref = reference('store_charged');
  const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: lines(store!, { bouquet_roses: 1 }) }, CHICAGO));
  const placed = await adapter.placeOrder({
    reference: ref,
    quote: request,
    expectedTotal: quote.totals.total,
    buyer: BUYER,
    payment: { mode: 'store_charged', handlerId: 'store_card', credential },
  });
  return { adapter, placed, ref };
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

  it('a card that needs 3-D Secure is payment_declined: Medusa does not authorize a session that needs more', async () => {
    const { adapter, placed } = await placeWith({ payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike }, CARD.needsAuthentication);
    try {
      // The payment module refuses any status but authorized or captured (NOT_ALLOWED: 400) before the step's requires-more answer;
      // an agent could not authenticate the buyer anyway.
      expect(placed).toMatchObject({ status: 'rejected', reason: 'payment_declined', detail: expect.stringMatching(/not authorized/i) });
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

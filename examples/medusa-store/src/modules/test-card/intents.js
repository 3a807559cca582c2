// Stripe's side of the example store's card provider: the PaymentIntents it made, as Stripe keeps
// them between calls. @medusajs/payment-stripe never trusts the session's copy of an intent: it
// reads the intent back from Stripe (getPaymentStatus, dist/core/stripe-base.js:129-139, used by
// authorizePayment :162-164), so an intent the buyer authenticated on Stripe's page since is
// authorized, one they failed is not. Kept in the server's memory (one `medusa start` process): a
// stand-in for Stripe's API, not a store of the shop's.
const intents = new Map();

/** Keeps an intent as created; `hook` is the provider's webhook path (`/hooks/payment/{hook}`). */
function keep(intent, hook) {
  intents.set(intent.id, { intent, hook });
}

/** The intent as Stripe has it now, or undefined (never made here, or the server restarted). */
function current(id) {
  return intents.get(id)?.intent;
}

/** The provider's webhook path of an intent. */
function hookOf(id) {
  return intents.get(id)?.hook;
}

/** Replaces what Stripe holds for an intent (authenticated, failed, canceled); the new intent. */
function update(id, change) {
  const kept = intents.get(id);
  if (!kept) return undefined;
  kept.intent = { ...kept.intent, ...change };
  return kept.intent;
}

module.exports = { keep, current, hookOf, update };

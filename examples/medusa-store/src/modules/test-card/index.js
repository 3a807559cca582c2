// A card payment provider in the manner of Stripe's test mode, modelled on what
// @medusajs/payment-stripe 2.21.2 does (dist/core/stripe-base.js; packages/modules/providers/
// payment-stripe/src/core/stripe-base.ts in medusajs/medusa), so the gateway's store_charged
// finishing meets a real store's provider, its decline and its unpleasant parts:
//
// - initiatePayment (:140-161) makes a PaymentIntent from the session's `data`, keeping only what
//   normalizePaymentIntentParameters (:32-66) reads: payment_method, confirm, off_session,
//   payment_method_data, shared_payment_token, capture_method, return_url, … Anything else
//   (`token`, say) reaches no intent. The intent is the session's data from then on.
// - The intent's status (Stripe's, as getStatus maps it, :386-417): no payment method:
//   requires_payment_method (pending); a payment method not confirmed: requires_confirmation
//   (pending); confirmed: requires_capture (authorized; `capture: true` in the options:
//   succeeded, captured). A declined card (`fail_token`) throws StripeCardError at confirmation,
//   whose intent handleStripeError (:67-106) keeps: requires_payment_method with
//   last_payment_error (error). A card that needs 3-D Secure (`action_token`): requires_action
//   (requires more), or declined when confirmed off_session. Its `next_action` (Stripe API,
//   PaymentIntent object `next_action`; docs.stripe.com/payments/3d-secure/authentication-flow,
//   "manual redirect"): `redirect_to_url` with the page where the buyer authenticates (`url`) when
//   the confirmation named a `return_url`, else `use_stripe_sdk` (Stripe.js must run the
//   challenge in the storefront: no page to send anyone to). The stand-in for Stripe's
//   authentication page is the store's own /test-card/authenticate/{intent}
//   (src/api/test-card/authenticate/[id]/route.js); approving there makes the intent succeed and
//   sends Medusa the `payment_intent.succeeded` webhook, as Stripe does, and Medusa then authorizes
//   the session and completes the cart itself (core-flows process-payment: complete-cart-after-
//   payment); failing it leaves the intent requires_payment_method with last_payment_error
//   `payment_intent_authentication_failure` (payment_intent.payment_failed, which Medusa ignores:
//   the cart stays open). A payment method that settles later
//   (`async_token`, as a SEPA debit does): processing, which Stripe's provider reports as pending
//   authorization for the provider's asyncPaymentMethodTypes, and Medusa then places the order
//   with its payment still to come (core-flows authorize-payment-session).
// - authorizePayment (:162-164) only reads the intent's status back, as Stripe has it now
//   (getPaymentStatus :129-139 retrieves it; intents.js keeps Stripe's side): a pending intent is
//   not authorized, and Medusa's cart completion answers "Payment authorization failed"; one that
//   requires action makes the payment module mark the session requires_more and refuse it
//   (payment-module.js authorizePaymentSession), the cart left open.
// - cancelPayment (a session replaced by a new one) cancels the intent: a challenge approved after
//   it no longer pays. getWebhookActionAndData maps Stripe's events as stripe-base.js :420-500 does.
//
// Registered in medusa-config.js under the store's own id and a Stripe-like one:
// `pp_test-card_test-card` and `pp_stripe_test-card` (Medusa names a provider
// pp_{identifier}_{id}, payment module loaders/providers.js).
const { AbstractPaymentProvider, ModuleProvider, Modules, PaymentActions, PaymentSessionStatus } = require('@medusajs/framework/utils');
const intents = require('./intents.js');

const DECLINED = 'fail_token';
const NEEDS_AUTHENTICATION = 'action_token';
const SETTLES_LATER = 'async_token';

// The keys of a session's data that reach Stripe's PaymentIntent (normalizePaymentIntentParameters).
const INTENT_KEYS = [
  'payment_method_types',
  'payment_description',
  'capture_method',
  'setup_future_usage',
  'payment_method_data',
  'payment_method_options',
  'automatic_payment_methods',
  'off_session',
  'confirm',
  'payment_method',
  'return_url',
  'shared_payment_token',
  'payment_method_configuration',
];

// Medusa's PaymentSessionStatus for a PaymentIntent status, as stripe-base.js getStatus maps it.
function statusOf(intent) {
  switch (intent.status) {
    case 'requires_payment_method':
      return intent.last_payment_error ? PaymentSessionStatus.ERROR : PaymentSessionStatus.PENDING;
    case 'processing':
      return intent.payment_method === SETTLES_LATER ? PaymentSessionStatus.PENDING_AUTHORIZATION : PaymentSessionStatus.PENDING;
    case 'requires_action':
      return PaymentSessionStatus.REQUIRES_MORE;
    case 'canceled':
      return PaymentSessionStatus.CANCELED;
    case 'requires_capture':
      return PaymentSessionStatus.AUTHORIZED;
    case 'succeeded':
      return PaymentSessionStatus.CAPTURED;
    default:
      return PaymentSessionStatus.PENDING;
  }
}

// The card a PaymentIntent request names: a payment method id, a card token in payment_method_data, or a shared payment token.
const cardOf = (params) => params.payment_method ?? params.payment_method_data?.card?.token ?? params.shared_payment_token;

// This server as the buyer reaches it (the authentication page's address): MEDUSA_BACKEND_URL, else its HOST and PORT.
const ownUrl = () =>
  (process.env.MEDUSA_BACKEND_URL || `http://${process.env.HOST || 'localhost'}:${process.env.PORT || 9000}`).replace(/\/+$/, '');

// Stripe's next_action of an intent that needs 3-D Secure.
const nextAction = (id, returnUrl) =>
  returnUrl
    ? { type: 'redirect_to_url', redirect_to_url: { url: `${ownUrl()}/test-card/authenticate/${id}`, return_url: returnUrl } }
    : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };

// What Stripe answers a PaymentIntent create with these parameters.
function createIntent(params, amount, currency, capture) {
  const intent = {
    id: `pi_test_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    object: 'payment_intent',
    amount: Math.round(Number(amount) * 100),
    currency,
    capture_method: params.capture_method ?? (capture ? 'automatic' : 'manual'),
    metadata: params.metadata,
    payment_method: cardOf(params) ?? null,
    last_payment_error: null,
  };
  if (!intent.payment_method) return { ...intent, status: 'requires_payment_method' };
  if (params.confirm !== true) return { ...intent, status: 'requires_confirmation' };
  if (intent.payment_method === DECLINED || (intent.payment_method === NEEDS_AUTHENTICATION && params.off_session === true))
    return {
      ...intent,
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: intent.payment_method === DECLINED ? 'card_declined' : 'authentication_required' },
    };
  if (intent.payment_method === NEEDS_AUTHENTICATION)
    return { ...intent, status: 'requires_action', next_action: nextAction(intent.id, params.return_url) };
  if (intent.payment_method === SETTLES_LATER) return { ...intent, status: 'processing' };
  return { ...intent, status: intent.capture_method === 'automatic' ? 'succeeded' : 'requires_capture' };
}

class TestCardProvider extends AbstractPaymentProvider {
  static identifier = 'test-card';

  constructor(container, options) {
    super(container, options);
    this.capture = Boolean(options && options.capture);
  }

  async initiatePayment({ amount, currency_code, data }) {
    const params = Object.fromEntries(INTENT_KEYS.filter((k) => data && data[k] !== undefined).map((k) => [k, data[k]]));
    params.metadata = { ...(data && data.metadata), session_id: data && data.session_id };
    const intent = createIntent(params, amount, currency_code, this.capture);
    intents.keep(intent, `${this.constructor.identifier}_test-card`);
    return { id: intent.id, data: intent, status: statusOf(intent) };
  }

  async authorizePayment(input) {
    return this.getPaymentStatus(input);
  }

  // As Stripe has the intent now (stripe-base.js getPaymentStatus retrieves it).
  async getPaymentStatus({ data }) {
    const intent = (data && intents.current(data.id)) || data;
    return { status: statusOf(intent), data: intent };
  }

  async updatePayment({ data, amount }) {
    const intent = { ...data, amount: Math.round(Number(amount) * 100) };
    return { status: statusOf(intent), data: intent };
  }

  async capturePayment({ data }) {
    return { data: { ...data, status: 'succeeded' } };
  }

  async cancelPayment({ data }) {
    if (!data || !data.id) return { data };
    return { data: intents.update(data.id, { status: 'canceled', next_action: null }) || { ...data, status: 'canceled' } };
  }

  async deletePayment(input) {
    return this.cancelPayment(input);
  }

  async refundPayment({ data }) {
    return { data };
  }

  async retrievePayment({ data }) {
    return { data };
  }

  // Stripe's events about an intent, as stripe-base.js getWebhookActionAndData maps them (:420-500).
  async getWebhookActionAndData({ data: event }) {
    const intent = event && event.data && event.data.object;
    if (!intent || !intent.metadata) return { action: PaymentActions.NOT_SUPPORTED };
    const session = (amount) => ({ session_id: intent.metadata.session_id, amount: amount / 100 });
    switch (event.type) {
      case 'payment_intent.succeeded':
        return { action: PaymentActions.SUCCESSFUL, data: session(intent.amount) };
      case 'payment_intent.amount_capturable_updated':
        return { action: PaymentActions.AUTHORIZED, data: session(intent.amount) };
      case 'payment_intent.payment_failed':
        return { action: PaymentActions.FAILED, data: session(intent.amount) };
      case 'payment_intent.requires_action':
        return { action: PaymentActions.REQUIRES_MORE, data: session(intent.amount) };
      default:
        return { action: PaymentActions.NOT_SUPPORTED };
    }
  }
}

// The same provider under Stripe's identifier: the id a Stripe store's provider has (pp_stripe_…).
class StripeLikeTestCardProvider extends TestCardProvider {
  static identifier = 'stripe';
}

module.exports = ModuleProvider(Modules.PAYMENT, { services: [TestCardProvider, StripeLikeTestCardProvider] });

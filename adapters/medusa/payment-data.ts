/**
 * The payment session's `data` for store_charged, in the form the tenant's Medusa payment
 * provider reads the buyer's credential. Medusa keeps the whole `data` with the session but each
 * provider reads only its own keys: @medusajs/payment-stripe builds its PaymentIntent from
 * `payment_method`, `confirm`, `off_session`, `shared_payment_token`, … only
 * (`normalizePaymentIntentParameters`, stripe-base.js in @medusajs/payment-stripe 2.21.2,
 * lines 32-66), so a credential under any other key leaves the intent `requires_payment_method`
 * and the authorization fails. A provider other than Stripe's is told by the tenant
 * (`adapter.settings.payment_data`).
 */
import type { PaymentCredential } from '../contract.js';

export type PaymentDataForm = Record<string, string | number | boolean>;

/** Stripe's: confirm the intent with the buyer's PaymentMethod at session creation. */
const STRIPE_FORM: PaymentDataForm = { payment_method: '{token}', confirm: true, return_url: '{return_url}' };
/** Any other provider's, unless the tenant says: the credential as the gateway holds it. */
const PLAIN_FORM: PaymentDataForm = { token: '{token}', type: '{type}' };

/** Stripe's providers are `pp_stripe_{id}` and `pp_stripe-{method}_{id}` (Medusa names a provider pp_{identifier}_{id}). */
const isStripe = (providerId: string) => /^pp_stripe[-_]/.test(providerId);

/** The form a provider reads: the tenant's, else Stripe's for Stripe's providers, else the plain one. */
export function paymentDataForm(providerId: string, configured?: PaymentDataForm): PaymentDataForm {
  return configured ?? (isStripe(providerId) ? STRIPE_FORM : PLAIN_FORM);
}

/**
 * The form with `{token}` and `{type}` replaced by the credential's, `{return_url}` by the page the
 * buyer comes back to after a challenge (whole values only: a token is never spliced into text).
 */
export function paymentData(form: PaymentDataForm, credential: PaymentCredential, returnUrl: string): Record<string, unknown> {
  const value = (v: string | number | boolean) =>
    v === '{token}' ? credential.token : v === '{type}' ? credential.type : v === '{return_url}' ? returnUrl : v;
  return Object.fromEntries(Object.entries(form).map(([key, v]) => [key, value(v)]));
}

/**
 * A Medusa tenant's adapter settings (`adapter.settings` of a `type: medusa` tenant) and the
 * credentials it needs (`adapter.credentials`, each an {env} or {file} reference): the store's
 * publishable API key (Store API: catalog, carts, checkout) and a secret API key (Admin API:
 * orders, order polling, variant lookups), sent as Basic auth by @medusajs/js-sdk; optionally the
 * secret the merchant's push subscriber signs its deliveries with (webhooks.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { doc } from '../../schemas/common.js';

const Url = Type.String({ pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$' });

export const MedusaSettings = Type.Object(
  {
    backend_url: doc(Url, 'The Medusa server, e.g. https://api.shop.example (where /store and /admin are).'),
    storefront_url: doc(Url, "The merchant's storefront (product pages at {storefront_url}/products/{handle})."),
    checkout_url: doc(
      Type.Optional(Type.String({ pattern: '\\{cart_id\\}' })),
      "handoff: the storefront's checkout page for a cart, with `{cart_id}` (the Medusa cart id); " +
        'default `{storefront_url}/checkout?cart_id={cart_id}`.',
    ),
    region_id: doc(Type.Optional(Type.String({ minLength: 1 })), "The region carts are priced in; default the store's default region."),
    sales_channel_id: doc(
      Type.Optional(Type.String({ minLength: 1 })),
      'The sales channel carts belong to; default the one the publishable key is scoped to.',
    ),
    payment_provider: doc(
      Type.Optional(Type.String({ minLength: 1 })),
      "store_charged: the Medusa payment provider that charges the buyer's credential; default pp_system_default.",
    ),
    payment_data: doc(
      Type.Optional(
        Type.Record(
          Type.String({ minLength: 1, maxLength: 100 }),
          Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()]),
          {
            minProperties: 1,
            maxProperties: 20,
          },
        ),
      ),
      "store_charged: the payment session's `data` as `payment_provider` reads it, `{token}` and " +
        "`{type}` standing for the buyer's credential, `{return_url}` for the storefront's checkout page of the cart " +
        "(where a 3-D Secure page sends the buyer back; payment-data.ts). Default: Stripe's form `{ " +
        "payment_method: '{token}', confirm: true, return_url: '{return_url}' }` for Stripe's providers (`pp_stripe_…`, " +
        "`pp_stripe-…`), `{ token: '{token}', type: '{type}' }` for any other.",
    ),
    request_timeout_ms: doc(
      Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
      'Deadline of one Medusa call when the gateway gives none (commands); default 10 s.',
    ),
  },
  { additionalProperties: false },
);
export type MedusaSettings = Static<typeof MedusaSettings>;

/** Names in `adapter.credentials`. */
export const CREDENTIALS = { publishable: 'publishable_key', secret: 'secret_key', webhook: 'webhook_secret' } as const;

/** What each is; a new tenant file references the two API keys. */
export const MedusaCredentialNames = Type.Object({
  [CREDENTIALS.publishable]: doc(
    Type.String(),
    "The store's publishable API key (pk_…), scoped to the sales channel the gateway sells in.",
  ),
  [CREDENTIALS.secret]: doc(Type.String(), 'A secret API key (sk_…) of an admin user: orders, order polling, variant lookups.'),
  [CREDENTIALS.webhook]: doc(
    Type.Optional(Type.String()),
    "The secret the merchant's push subscriber signs its deliveries with (PROTO_WEBHOOK_SECRET on the Medusa side).",
  ),
});

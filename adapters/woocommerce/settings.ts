/**
 * A WooCommerce tenant's adapter settings (the tenant file's `adapter.settings`) and the
 * credentials it needs (`adapter.credentials`, each an {env} or {file} reference).
 */
import { Type, type Static } from '@sinclair/typebox';
import { doc } from '../../schemas/common.js';

export const WooCommerceSettings = Type.Object(
  {
    store_url: doc(
      Type.String({ pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$' }),
      'The store\'s home URL (WordPress "Site Address"), e.g. https://shop.example.com',
    ),
    query_string_auth: doc(
      Type.Optional(Type.Boolean()),
      'HTTPS stores: send the key pair as query parameters instead of basic auth, for hosts whose web ' +
        'server drops the Authorization header. Plain-HTTP stores always sign with OAuth 1.0a.',
    ),
    store_charged: doc(
      Type.Optional(
        Type.Object(
          {
            payment_method: Type.String({ minLength: 1 }),
            payment_data_key: Type.Optional(Type.String({ minLength: 1 })),
          },
          { additionalProperties: false },
        ),
      ),
      "store_charged: the store's payment gateway that charges the buyer's credential, and the payment_data key it reads.",
    ),
    gateway_charged: doc(
      Type.Optional(
        Type.Object(
          {
            payment_method: Type.Optional(Type.String({ minLength: 1 })),
            payment_method_title: Type.Optional(Type.String({ minLength: 1 })),
          },
          { additionalProperties: false },
        ),
      ),
      'gateway_charged: how the order paid through the gateway shows in wp-admin.',
    ),
    currency: doc(
      Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
      "The store's currency, used when the store cannot be reached at start-up (it is read from the store otherwise).",
    ),
    discontinued_tag: doc(
      Type.Optional(Type.String({ minLength: 1 })),
      'Product tag marking discontinued products (WooCommerce has no such status).',
    ),
    request_timeout_ms: doc(
      Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
      'Deadline of one store call when the gateway gives none (commands); default 10 s.',
    ),
    cache_seconds: doc(
      Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
      'How long variations, categories and coupon rules read from the store are reused; default 300 s.',
    ),
  },
  { additionalProperties: false },
);
export type WooCommerceSettings = Static<typeof WooCommerceSettings>;

/** Names in `adapter.credentials`: the REST API key pair, and the secret the store signs webhooks with. */
export const CREDENTIALS = { key: 'consumer_key', secret: 'consumer_secret', webhook: 'webhook_secret' } as const;

/** What each is; a new tenant file references all three (webhooks are how orders placed on the store reach the gateway). */
export const WooCommerceCredentialNames = Type.Object({
  [CREDENTIALS.key]: doc(Type.String(), 'REST API consumer key (ck_…; WooCommerce > Settings > Advanced > REST API, Read/Write).'),
  [CREDENTIALS.secret]: doc(Type.String(), 'Its consumer secret (cs_…).'),
  [CREDENTIALS.webhook]: doc(
    Type.String(),
    'A secret you choose; the store signs its webhooks with it (`npm run woocommerce -- webhooks register` sets it there).',
  ),
});

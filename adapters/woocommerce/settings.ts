/**
 * A WooCommerce tenant's adapter settings (the tenant file's `adapter.settings`) and the
 * credentials it needs (`adapter.credentials`, each an {env} or {file} reference).
 */
import { Type, type Static } from '@sinclair/typebox';

export const WooCommerceSettings = Type.Object(
  {
    /** The store's home URL (WordPress "Site Address"), e.g. https://shop.example.com */
    store_url: Type.String({ pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$' }),
    /**
     * HTTPS stores: send the key pair as query parameters instead of basic auth, for hosts whose
     * web server drops the Authorization header. Plain-HTTP stores always sign with OAuth 1.0a.
     */
    query_string_auth: Type.Optional(Type.Boolean()),
    /** store_charged: the store's payment gateway that charges the buyer's credential, and the payment_data key it reads. */
    store_charged: Type.Optional(
      Type.Object(
        {
          payment_method: Type.String({ minLength: 1 }),
          payment_data_key: Type.Optional(Type.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** gateway_charged: how the order paid through the gateway shows in wp-admin. */
    gateway_charged: Type.Optional(
      Type.Object(
        {
          payment_method: Type.Optional(Type.String({ minLength: 1 })),
          payment_method_title: Type.Optional(Type.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** The store's currency, used when the store cannot be reached at start-up (it is read from the store otherwise). */
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    /** Product tag marking discontinued products (WooCommerce has no such status). */
    discontinued_tag: Type.Optional(Type.String({ minLength: 1 })),
    /** Deadline of one store call when the gateway gives none (commands); default 10 s. */
    request_timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
    /** How long variations, categories and coupon rules read from the store are reused; default 300 s. */
    cache_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
  },
  { additionalProperties: false },
);
export type WooCommerceSettings = Static<typeof WooCommerceSettings>;

/** Names in `adapter.credentials`: the REST API key pair, and the secret the store signs webhooks with. */
export const CREDENTIALS = { key: 'consumer_key', secret: 'consumer_secret', webhook: 'webhook_secret' } as const;

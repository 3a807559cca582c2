/**
 * The tenant's Shopify settings (`adapter.settings`) and credentials (`adapter.credentials`, each
 * an `{ env }` or `{ file }` reference resolved by the gateway; never in the settings).
 */
import { Type, type Static } from '@sinclair/typebox';
import { doc } from '../../schemas/common.js';

/** The newest stable quarterly version; its schemas are in simulators/shopify/schemas. */
export const DEFAULT_API_VERSION = '2026-10';

export const ShopifySettings = Type.Object(
  {
    shop: doc(Type.String({ pattern: '^[a-z0-9][a-z0-9-]*\\.myshopify\\.com$' }), "The shop's permanent domain, e.g. acme.myshopify.com."),
    api_version: doc(
      Type.Optional(Type.String({ pattern: '^(\\d{4}-(01|04|07|10)|unstable)$' })),
      `The Admin and Storefront API version; default ${DEFAULT_API_VERSION}.`,
    ),
    api_origin: doc(
      Type.Optional(Type.String({ pattern: '^https?://[^/?#]+$' })),
      'Send Shopify calls here instead of https://{shop} (a local simulator, an egress proxy). Tests ' +
        'and `npm run demo:shopify` use it; production tenants leave it out.',
    ),
    storefront_url: doc(
      Type.Optional(Type.String({ format: 'uri' })),
      "The shop's public site (the `continue_url` when there is no cart); default https://{shop}.",
    ),
    markets: doc(
      Type.Optional(
        Type.Array(
          Type.Object(
            { country: Type.String({ pattern: '^[A-Z]{2}$' }), currency: Type.String({ pattern: '^[A-Z]{3}$' }) },
            { additionalProperties: false },
          ),
          {
            minItems: 1,
          },
        ),
      ),
      'Shopify Markets the gateway sells in: the currency of each buyer country. The first is the ' +
        'default; a request in another currency is priced in the market of that currency.',
    ),
    carrier_rates: doc(
      Type.Optional(Type.Boolean()),
      'Ask for carrier-calculated shipping rates (`withCarrierRates` under `@defer`: one more ' +
        'Storefront read per quote with an address). Default true; false saves that read on a shop whose ' +
        'rates are all static.',
    ),
    language: doc(
      Type.Optional(Type.String({ pattern: '^[A-Z]{2}(_[A-Z]{2})?$' })),
      'Storefront language of product texts (@inContext(language)).',
    ),
  },
  { additionalProperties: false },
);
type Given = Static<typeof ShopifySettings>;
export type ShopifySettingsGiven = Given;

/** The settings with their defaults filled in. */
export type ShopifyConfig = Omit<Given, 'api_version' | 'markets'> & { api_version: string; markets: NonNullable<Given['markets']> };

export function withDefaults(settings: Given): ShopifyConfig {
  return {
    ...settings,
    api_version: settings.api_version ?? DEFAULT_API_VERSION,
    markets: settings.markets ?? [{ country: 'US', currency: 'USD' }],
  };
}

/** Credential names in `adapter.credentials`. */
export interface ShopifyCredentials {
  /** Storefront API private token (Headless channel or custom app). */
  storefront_token: string;
  /** A static Admin API token (older custom apps) ... */
  admin_token?: string;
  /** ... or the app's client id and secret for the client-credentials grant. */
  client_id?: string;
  client_secret?: string;
  /** The secret webhooks are signed with: the app's client secret (default: client_secret). */
  webhook_secret?: string;
}

/** The credential names with what each is; a new tenant file references the required ones (the client-credentials grant). */
export const ShopifyCredentialNames = Type.Object({
  storefront_token: doc(Type.String(), 'Storefront API private token (Headless channel or custom app).'),
  client_id: doc(Type.String(), "The app's client id: Admin API tokens come from the client-credentials grant."),
  client_secret: doc(Type.String(), "The app's client secret: the grant, and the secret Shopify signs webhooks with."),
  admin_token: doc(Type.Optional(Type.String()), 'A static Admin API token (older custom apps), instead of client_id and client_secret.'),
  webhook_secret: doc(Type.Optional(Type.String()), 'The secret webhooks are signed with: default client_secret; needed with admin_token.'),
});

/** The credentials a tenant must give, with what is wrong when it does not. */
export function checkCredentials(
  credentials: Record<string, string>,
): { ok: true; value: ShopifyCredentials } | { ok: false; message: string } {
  const { storefront_token, admin_token, client_id, client_secret } = credentials;
  const known = new Set(Object.keys(ShopifyCredentialNames.properties));
  const unknown = Object.keys(credentials).find((name) => !known.has(name));
  if (unknown) return { ok: false, message: `$.adapter.credentials.${unknown} is not a Shopify credential (${[...known].join(', ')})` };
  if (!storefront_token)
    return { ok: false, message: '$.adapter.credentials.storefront_token is required (the Storefront API private token)' };
  if (!admin_token && !(client_id && client_secret)) {
    return { ok: false, message: '$.adapter.credentials needs admin_token, or client_id and client_secret (client-credentials grant)' };
  }
  if (!credentials.webhook_secret && !client_secret) {
    return {
      ok: false,
      message: '$.adapter.credentials.webhook_secret is required with admin_token (the app secret webhooks are signed with)',
    };
  }
  return { ok: true, value: credentials as unknown as ShopifyCredentials };
}

/**
 * The tenant file (config/tenants/<id>.yaml|json): one merchant, its backend and its policies.
 * Secrets are only ever references ({env} or {file}); a literal secret fails validation.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../schemas/common.js';
import { defaultBackendPolicy, type BackendPolicy } from './backend-policy.js';
import { EmbeddedConfig } from '../embedded/settings.js';
import { identityLinkingSchema } from './identity-linking-schema.js';

/** An http(s) origin with an optional path, no trailing slash, query or fragment. */
export const BASE_URL_PATTERN = '^https?://[^/?#]+(/[^?#]*[^/?#])?$';

/** An absolute URL, or a path (`/terms`) relative to the tenant's base_url. */
const UrlOrPath = Type.String({
  anyOf: [{ format: 'uri' }, { pattern: '^/(?!/)' }],
  description: 'an absolute URL, or a path relative to base_url',
});

export const SecretRef = Type.Union(
  [
    Type.Object({ env: Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$' }) }, { additionalProperties: false }),
    Type.Object({ file: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  ],
  { description: 'a reference {env: NAME} or {file: PATH}, never a literal secret' },
);
export type SecretRef = Static<typeof SecretRef>;

const ProfileUrl = Type.String({ format: 'uri', description: 'the platform profile URL the credential was issued to' });

/** Caller authentication (spec part 1 §5, part 2 §5). Credentials are stored only as hashes or public keys. */
export const TenantAuth = Type.Object(
  {
    /** Every operation needs an authenticated caller. Order operations always do. */
    required: Type.Optional(Type.Boolean()),
    /** Capabilities whose operations need an authenticated caller even when `required` is false. */
    required_capabilities: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }))),
    /** Accepted mechanisms; default: every configured one, and signature unless verify_requests is off. */
    accept: Type.Optional(Type.Array(StringEnum(['api_key', 'oauth', 'signature', 'mtls']), { uniqueItems: true })),
    api_keys: Type.Optional(
      Type.Array(
        Type.Object(
          {
            /** Hex SHA-256 of the key; the key itself never appears in configuration. */
            sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
            profile: ProfileUrl,
            name: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    oauth: Type.Optional(
      Type.Object(
        {
          issuer: Type.String({ minLength: 1 }),
          audience: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })]),
          /** The authorization server's JWKS, fetched and cached; or `jwks` inline. */
          jwks_url: Type.Optional(Type.String({ format: 'uri' })),
          jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) })),
          algorithms: Type.Optional(Type.Array(StringEnum(['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA']), { minItems: 1 })),
          /** OAuth client_id to the platform profile it belongs to; an https client_id is its own profile URL. */
          clients: Type.Optional(Type.Record(Type.String({ minLength: 1 }), ProfileUrl)),
          clock_tolerance_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300 })),
        },
        { additionalProperties: false },
      ),
    ),
    mtls: Type.Optional(
      Type.Object(
        {
          clients: Type.Array(
            Type.Object(
              {
                /** SHA-256 fingerprint of the client certificate, hex with or without colons. */
                sha256: Type.String({ pattern: '^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$' }),
                profile: ProfileUrl,
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TenantAuth = Static<typeof TenantAuth>;

/** Buyer fields a store may require at checkout. */
export const BUYER_FIELDS = ['email', 'first_name', 'last_name', 'phone_number'] as const;
export type BuyerField = (typeof BUYER_FIELDS)[number];

const Seconds = (min: number, dflt: number) => Type.Integer({ minimum: min, default: dflt });

const RateLimit = Type.Object(
  { max: Type.Integer({ minimum: 1 }), window_seconds: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

/**
 * The merchant's own storefront, for a gateway deployed on the merchant's domain: every path the
 * gateway does not answer is passed through to it (transports/front-door).
 */
export const FrontDoor = Type.Object(
  {
    /** The store's origin: https (plain http only on loopback, for tests and demos), no user, path, query or fragment. */
    upstream: Type.String({
      anyOf: [{ pattern: '^https://[^/?#@\\s]+/?$' }, { pattern: '^http://(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d{1,5})?/?$' }],
      description: 'an https origin without user, path or query (plain http only on loopback)',
    }),
    /** Send the merchant's Host to the store instead of the store's own (stores that serve the merchant's domain). */
    preserve_host: Type.Optional(Type.Boolean()),
    /** How long the store may take to start answering, and to send each further piece of its answer. */
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 300_000 })),
  },
  { additionalProperties: false },
);
export type FrontDoor = Static<typeof FrontDoor>;

export const TenantConfig = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
    name: Type.String({ minLength: 1 }),
    /**
     * Public base URL of this tenant's REST endpoint (no trailing slash). Absent: the gateway's
     * BASE_URL, else the address it listens on (local runs); URLs below may then start with `/`.
     */
    base_url: Type.Optional(Type.String({ pattern: BASE_URL_PATTERN })),
    /** Host header values that route here; none + a single tenant = every host. */
    hosts: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Path prefix that routes here, e.g. /shops/flowers. */
    path_prefix: Type.Optional(Type.String({ pattern: '^(/[A-Za-z0-9._~-]+)+$' })),
    adapter: Type.Object(
      {
        /** One of the adapters this build has: tenantSchema below narrows it to their types. */
        type: Type.String({ minLength: 1 }),
        settings: Type.Record(Type.String(), Type.Unknown()),
        /**
         * How checkouts finish: gateway_charged, store_charged or handoff; one the adapter declares.
         * Default: handoff when no payment handler charges, otherwise the adapter's first.
         */
        finishing: Type.Optional(StringEnum(['gateway_charged', 'store_charged', 'handoff'])),
        /** How often changed orders are polled (adapters with `ordersChangedSince`; WooCommerce: lost deliveries). */
        order_poll_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 86_400 })),
        credentials: Type.Optional(Type.Record(Type.String(), SecretRef)),
      },
      { additionalProperties: false },
    ),
    /** Enabled capabilities and their config, keyed by capability name. */
    capabilities: Type.Record(Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }), Type.Record(Type.String(), Type.Unknown())),
    payment_handlers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String({ minLength: 1 }),
            name: Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }),
            /**
             * A type in payments/registry.ts, checked at start-up: sandbox: the gateway charges
             * (gateway_charged); store: the store charges the credential (store_charged); handoff: the store's page.
             */
            type: Type.String({ minLength: 1 }),
            instruments: Type.Array(Type.String(), { minItems: 1 }),
            config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    signing: Type.Optional(
      Type.Object(
        {
          /** Private JWKs (kid = RFC 7638 thumbprint); the public halves are published in the profile. */
          keys: Type.Optional(Type.Array(SecretRef)),
          /** kid of the key that signs; the others only verify (rotation). Required with keys. */
          active_kid: Type.Optional(Type.String({ minLength: 1 })),
          /** No keys: sign with a throw-away ES256 key generated at start-up (demo, local runs). */
          ephemeral_key: Type.Optional(Type.Boolean()),
          /** Default: true when the tenant has a signing key. */
          sign_responses: Type.Optional(Type.Boolean()),
          /** Default: optional (verify a signature when present). */
          verify_requests: Type.Optional(StringEnum(['off', 'optional', 'required'])),
          clock_skew_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, default: 60 })),
          max_age_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, default: 300 })),
        },
        { additionalProperties: false },
      ),
    ),
    auth: Type.Optional(TenantAuth),
    /** OAuth clients and token lifetimes of the tenant's authorization server (src/identity). */
    identity_linking: Type.Optional(identityLinkingSchema(SecretRef)),
    /** Checkout rules of this store. */
    checkout: Type.Optional(
      Type.Object(
        {
          /** Buyer fields needed before an order is placed (default and minimum: email, which every order needs). */
          required_buyer_fields: Type.Optional(Type.Array(StringEnum(BUYER_FIELDS), { uniqueItems: true })),
        },
        { additionalProperties: false },
      ),
    ),
    links: Type.Optional(
      Type.Array(
        Type.Object({ type: Type.String(), url: UrlOrPath, title: Type.Optional(Type.String()) }, { additionalProperties: false }),
      ),
    ),
    policies: Type.Optional(
      Type.Object(
        {
          cart_ttl_seconds: Type.Optional(Seconds(60, 86_400)),
          checkout_ttl_seconds: Type.Optional(Seconds(60, 21_600)),
          idempotency_retention_seconds: Type.Optional(Seconds(86_400, 172_800)),
          lookup_batch_limit: Type.Optional(Type.Integer({ minimum: 10, maximum: 1000 })),
          search_page_limit: Type.Optional(Type.Integer({ minimum: 10, maximum: 250 })),
          catalog_cache_ttl_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
          /** Let platform profiles live on loopback, over plain http too (local development). */
          allow_loopback_profiles: Type.Optional(Type.Boolean()),
          rate_limits: Type.Optional(
            Type.Object({ per_caller: Type.Optional(RateLimit), per_tenant: Type.Optional(RateLimit) }, { additionalProperties: false }),
          ),
          /** Backend calls: deadline of one attempt and attempts in all for calls that may be repeated. */
          backend: Type.Optional(
            Type.Object(
              {
                timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
                attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
              },
              { additionalProperties: false },
            ),
          ),
          /** Currency conversion rates for price filters: { "EUR": 1.08 } = 1 EUR is 1.08 of the store currency. */
          exchange_rates: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Number({ exclusiveMinimum: 0 }))),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The order simulation API (POST /simulate/orders/{id}/{action}) for adapters that offer one
     * (the demo store): enabled only with a secret, which callers send as a bearer token.
     */
    simulation: Type.Optional(
      Type.Object(
        {
          secret: SecretRef,
          /** With a `{file}` secret: write a random one there at start-up when the file does not exist (local demos). */
          create_secret: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    /** The embedded transport: the gateway's cart and checkout page inside an agent's own window (embedded/settings.ts). */
    embedded: Type.Optional(EmbeddedConfig),
    /** The A2A transport: an agent card at /.well-known/agent-card.json and JSON-RPC at /a2a (transports/a2a). */
    a2a: Type.Optional(Type.Boolean()),
    /** Pass every non-protocol path through to the merchant's storefront (a gateway on the merchant's own domain). */
    front_door: Type.Optional(FrontDoor),
    /** Extra protocol versions served, to their version-specific profile URLs. */
    supported_versions: Type.Optional(Type.Record(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.String({ format: 'uri' }))),
  },
  { additionalProperties: false },
);
export type TenantConfig = Static<typeof TenantConfig>;

/** The schema a tenant file is checked against: `adapter.type` names an adapter of this build (adapters/registry.ts). */
export function tenantSchema(adapterTypes: readonly string[]) {
  const { adapter } = TenantConfig.properties;
  return Type.Object(
    {
      ...TenantConfig.properties,
      adapter: Type.Object({ ...adapter.properties, type: StringEnum(adapterTypes) }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  );
}

/** Policies with every default filled in. */
export interface Policies {
  cartTtlMs: number;
  checkoutTtlMs: number;
  /** Always includes email. */
  requiredBuyerFields: BuyerField[];
  idempotencyRetentionMs: number;
  lookupBatchLimit: number;
  searchPageLimit: number;
  catalogCacheTtlMs: number;
  allowLoopbackProfiles: boolean;
  rateLimits: { perCaller?: { max: number; windowMs: number }; perTenant?: { max: number; windowMs: number } };
  exchangeRates: Record<string, number>;
  backend: BackendPolicy;
}

export function resolvePolicies(config: TenantConfig): Policies {
  const p = config.policies ?? {};
  const rate = (r?: { max: number; window_seconds: number }) => (r ? { max: r.max, windowMs: r.window_seconds * 1000 } : undefined);
  const perCaller = rate(p.rate_limits?.per_caller);
  const perTenant = rate(p.rate_limits?.per_tenant);
  return {
    cartTtlMs: (p.cart_ttl_seconds ?? 86_400) * 1000,
    checkoutTtlMs: (p.checkout_ttl_seconds ?? 21_600) * 1000,
    requiredBuyerFields: ['email', ...(config.checkout?.required_buyer_fields ?? []).filter((field) => field !== 'email')],
    idempotencyRetentionMs: (p.idempotency_retention_seconds ?? 172_800) * 1000,
    lookupBatchLimit: p.lookup_batch_limit ?? 50,
    searchPageLimit: p.search_page_limit ?? 50,
    catalogCacheTtlMs: (p.catalog_cache_ttl_seconds ?? 30) * 1000,
    allowLoopbackProfiles: p.allow_loopback_profiles ?? false,
    rateLimits: { ...(perCaller && { perCaller }), ...(perTenant && { perTenant }) },
    exchangeRates: p.exchange_rates ?? {},
    backend: {
      ...defaultBackendPolicy,
      ...(p.backend?.timeout_ms !== undefined && { timeoutMs: p.backend.timeout_ms }),
      ...(p.backend?.attempts !== undefined && { attempts: p.backend.attempts }),
    },
  };
}

/**
 * The tenant file (config/tenants/<id>.yaml|json): one merchant, its backend and its policies.
 * Secrets are only ever references ({env} or {file}); a literal secret fails validation.
 */
import { Type, type Static } from '@sinclair/typebox';
import { doc, StringEnum } from '../../schemas/common.js';
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
    required: doc(Type.Optional(Type.Boolean()), 'Every operation needs an authenticated caller. Order operations always do.'),
    required_capabilities: doc(
      Type.Optional(Type.Array(Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }))),
      'Capabilities whose operations need an authenticated caller even when `required` is false.',
    ),
    accept: doc(
      Type.Optional(Type.Array(StringEnum(['api_key', 'oauth', 'signature', 'mtls']), { uniqueItems: true })),
      'Accepted mechanisms; default: every configured one (signature: when `signatures` names whose, and verify_requests is not off).',
    ),
    signatures: doc(
      Type.Optional(
        Type.Object(
          {
            profiles: doc(
              Type.Optional(Type.Array(Type.String({ format: 'uri' }), { uniqueItems: true })),
              'Platform profile URLs whose request signatures (made with keys that profile publishes) authenticate the platform.',
            ),
            any_profile: doc(
              Type.Optional(Type.Boolean()),
              'Opt-in: a signature with keys from any profile authenticates it, so anyone who can host a profile passes ' +
                '`required`. Such callers still share their network address budget. Default false.',
            ),
          },
          { additionalProperties: false },
        ),
      ),
      'Whose HTTP message signatures authenticate a caller: a verified signature from a profile not listed here proves nothing.',
    ),
    api_keys: Type.Optional(
      Type.Array(
        Type.Object(
          {
            sha256: doc(
              Type.String({ pattern: '^[0-9a-f]{64}$' }),
              'Hex SHA-256 of the key; the key itself never appears in configuration.',
            ),
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
          jwks_url: doc(
            Type.Optional(Type.String({ format: 'uri' })),
            "The authorization server's JWKS, fetched and cached; or `jwks` inline.",
          ),
          jwks: Type.Optional(Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) })),
          algorithms: Type.Optional(Type.Array(StringEnum(['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA']), { minItems: 1 })),
          clients: doc(
            Type.Optional(Type.Record(Type.String({ minLength: 1 }), ProfileUrl)),
            'OAuth client_id to the platform profile it belongs to; an https client_id is its own profile URL.',
          ),
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
                sha256: doc(
                  Type.String({ pattern: '^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$' }),
                  'SHA-256 fingerprint of the client certificate, hex with or without colons.',
                ),
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
const BUYER_FIELDS = ['email', 'first_name', 'last_name', 'phone_number'] as const;
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
const FrontDoor = Type.Object(
  {
    // The description doubles as the validation message ("must be …"), so it is not replaced by doc().
    upstream: Type.String({
      anyOf: [{ pattern: '^https://[^/?#@\\s]+/?$' }, { pattern: '^http://(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d{1,5})?/?$' }],
      description: 'an https origin without user, path or query (plain http only on loopback)',
    }),
    preserve_host: doc(
      Type.Optional(Type.Boolean()),
      "Send the merchant's Host to the store instead of the store's own (stores that serve the merchant's domain).",
    ),
    timeout_ms: doc(
      Type.Optional(Type.Integer({ minimum: 100, maximum: 300_000 })),
      'How long the store may take to start answering, and to send each further piece of its answer.',
    ),
  },
  { additionalProperties: false },
);
type FrontDoor = Static<typeof FrontDoor>;

export const TenantConfig = Type.Object(
  {
    id: doc(
      Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
      "The tenant's id: in logs, state keys, metrics and `npm run rest -- check --tenant ID`.",
    ),
    name: doc(Type.String({ minLength: 1 }), "The business's name, as agents and buyers see it."),
    base_url: doc(
      Type.Optional(Type.String({ pattern: BASE_URL_PATTERN })),
      "Public base URL of this tenant's REST endpoint (no trailing slash). Absent: the gateway's BASE_URL, " +
        'else the address it listens on (local runs); URLs below may then start with `/`.',
    ),
    hosts: doc(
      Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
      'Host header values that route here (and the only hosts its path_prefix answers on); none + a single tenant = every host.',
    ),
    path_prefix: doc(
      Type.Optional(Type.String({ pattern: '^(/[A-Za-z0-9._~-]+)+$' })),
      "Path prefix that routes here, e.g. /shops/flowers: on the tenant's hosts, or without hosts on any host no tenant lists.",
    ),
    adapter: doc(
      Type.Object(
        {
          type: doc(
            Type.String({ minLength: 1 }),
            'Which adapter serves the store, one this build has (adapters/registry.ts): `rest` here.',
          ),
          settings: doc(
            Type.Record(Type.String(), Type.Unknown()),
            "The adapter's own settings, checked against its schema (for `rest`: the section below).",
          ),
          finishing: doc(
            Type.Optional(StringEnum(['gateway_charged', 'store_charged', 'handoff'])),
            'How checkouts finish: gateway_charged, store_charged or handoff; one the adapter declares. ' +
              "Default: handoff when no payment handler charges, otherwise the adapter's first.",
          ),
          order_poll_seconds: doc(
            Type.Optional(Type.Integer({ minimum: 5, maximum: 86_400 })),
            'How often changed orders are polled (adapters with `ordersChangedSince`; WooCommerce: lost deliveries).',
          ),
          credentials: doc(
            Type.Optional(Type.Record(Type.String(), SecretRef)),
            "The store's secrets by name, each an {env} or {file} reference; settings name them.",
          ),
        },
        { additionalProperties: false },
      ),
      'The store behind this tenant: which adapter, its settings and credentials, how checkouts finish.',
    ),
    capabilities: doc(
      Type.Record(Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }), Type.Record(Type.String(), Type.Unknown())),
      'Enabled capabilities and their config, keyed by capability name.',
    ),
    payment_handlers: doc(
      Type.Optional(
        Type.Array(
          Type.Object(
            {
              id: doc(Type.String({ minLength: 1 }), 'The handler id agents name in a payment instrument (`handler_id`).'),
              name: doc(
                Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }),
                "The handler's reverse-domain name in the profile, e.g. dev.proto.payments.store_card.",
              ),
              type: doc(
                Type.String({ minLength: 1 }),
                'A type in payments/registry.ts, checked at start-up: sandbox: the gateway charges (gateway_charged); ' +
                  "store: the store charges the credential (store_charged); handoff: the store's page.",
              ),
              instruments: doc(Type.Array(Type.String(), { minItems: 1 }), 'Instrument types it takes, e.g. card.'),
              config: doc(Type.Optional(Type.Record(Type.String(), Type.Unknown())), "The handler type's own settings."),
            },
            { additionalProperties: false },
          ),
        ),
      ),
      'Payment handlers advertised to agents; which ones charge decides `adapter.finishing`.',
    ),
    signing: doc(
      Type.Optional(
        Type.Object(
          {
            keys: doc(
              Type.Optional(Type.Array(SecretRef)),
              'Private JWKs (kid = RFC 7638 thumbprint); the public halves are published in the profile.',
            ),
            active_kid: doc(
              Type.Optional(Type.String({ minLength: 1 })),
              'kid of the key that signs; the others only verify (rotation). Required with keys.',
            ),
            ephemeral_key: doc(
              Type.Optional(Type.Boolean()),
              'No keys: sign with a throw-away ES256 key generated at start-up (demo, local runs).',
            ),
            sign_responses: doc(Type.Optional(Type.Boolean()), 'Default: true when the tenant has a signing key.'),
            verify_requests: doc(
              Type.Optional(StringEnum(['off', 'optional', 'required'])),
              'Default: optional (verify a signature when present).',
            ),
            clock_skew_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, default: 60 })),
            max_age_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, default: 300 })),
          },
          { additionalProperties: false },
        ),
      ),
      'Message signatures: the keys the gateway signs its responses and webhooks with, and how it verifies signed requests.',
    ),
    auth: doc(Type.Optional(TenantAuth), 'How callers authenticate (API keys, OAuth, mTLS, signatures) and which operations need it.'),
    identity_linking: doc(
      Type.Optional(identityLinkingSchema(SecretRef)),
      "OAuth clients and token lifetimes of the tenant's authorization server (src/identity).",
    ),
    checkout: doc(
      Type.Optional(
        Type.Object(
          {
            required_buyer_fields: doc(
              Type.Optional(Type.Array(StringEnum(BUYER_FIELDS), { uniqueItems: true })),
              'Buyer fields needed before an order is placed (default and minimum: email, which every order needs).',
            ),
          },
          { additionalProperties: false },
        ),
      ),
      'Checkout rules of this store.',
    ),
    links: doc(
      Type.Optional(
        Type.Array(
          Type.Object({ type: Type.String(), url: UrlOrPath, title: Type.Optional(Type.String()) }, { additionalProperties: false }),
        ),
      ),
      'Links shown with every checkout (terms, privacy policy, refunds), by type.',
    ),
    policies: doc(
      Type.Optional(
        Type.Object(
          {
            cart_ttl_seconds: doc(Type.Optional(Seconds(60, 86_400)), 'How long an untouched cart lives.'),
            checkout_ttl_seconds: doc(Type.Optional(Seconds(60, 21_600)), 'How long an untouched checkout session lives.'),
            idempotency_retention_seconds: doc(
              Type.Optional(Seconds(86_400, 172_800)),
              "How long an Idempotency-Key's answer is kept for replay.",
            ),
            lookup_batch_limit: doc(
              Type.Optional(Type.Integer({ minimum: 10, maximum: 1000 })),
              'Most ids one catalog lookup takes; default 50.',
            ),
            search_page_limit: doc(
              Type.Optional(Type.Integer({ minimum: 10, maximum: 250 })),
              'Most products one search page gives; default 50.',
            ),
            catalog_cache_ttl_seconds: doc(
              Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
              'How long catalog answers are cached; 0 turns the cache off; default 30.',
            ),
            allow_loopback_profiles: doc(
              Type.Optional(Type.Boolean()),
              'Let platform profiles live on loopback, over plain http too (local development).',
            ),
            rate_limits: doc(
              Type.Optional(
                Type.Object(
                  { per_caller: Type.Optional(RateLimit), per_tenant: Type.Optional(RateLimit) },
                  { additionalProperties: false },
                ),
              ),
              'Requests allowed per caller and per tenant in a window (429 past it).',
            ),
            backend: doc(
              Type.Optional(
                Type.Object(
                  {
                    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
                    attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
                    circuit_failures: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
                    circuit_pause_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 600 })),
                  },
                  { additionalProperties: false },
                ),
              ),
              'Backend calls: deadline of one attempt, attempts in all for calls that may be repeated, and the circuit: ' +
                'failed attempts in a row that open it (default 8), seconds it then refuses calls before trying one (default 15).',
            ),
            exchange_rates: doc(
              Type.Optional(Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Number({ exclusiveMinimum: 0 }))),
              'Currency conversion rates for price filters: { "EUR": 1.08 } = 1 EUR is 1.08 of the store currency.',
            ),
          },
          { additionalProperties: false },
        ),
      ),
      'Session lifetimes, limits, rate limits and backend deadlines; every one has a default.',
    ),
    simulation: doc(
      Type.Optional(
        Type.Object(
          {
            secret: SecretRef,
            create_secret: doc(
              Type.Optional(Type.Boolean()),
              'With a `{file}` secret: write a random one there at start-up when the file does not exist (local demos).',
            ),
          },
          { additionalProperties: false },
        ),
      ),
      'The order simulation API (POST /simulate/orders/{id}/{action}) for adapters that offer one ' +
        '(the demo store): enabled only with a secret, which callers send as a bearer token.',
    ),
    embedded: doc(
      Type.Optional(EmbeddedConfig),
      "The embedded transport: the gateway's cart and checkout page inside an agent's own window (embedded/settings.ts).",
    ),
    a2a: doc(
      Type.Optional(Type.Boolean()),
      'The A2A transport: an agent card at /.well-known/agent-card.json and JSON-RPC at /a2a (transports/a2a).',
    ),
    front_door: doc(
      Type.Optional(FrontDoor),
      "Pass every non-protocol path through to the merchant's storefront (a gateway on the merchant's own domain).",
    ),
    supported_versions: doc(
      Type.Optional(Type.Record(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.String({ format: 'uri' }))),
      'Extra protocol versions served, to their version-specific profile URLs.',
    ),
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
  /** The tenant's circuit breaker (tenancy/backend-circuit.ts): failed attempts in a row that open it, and its pause. */
  circuit: { failures: number; halfOpenAfterMs: number };
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
    circuit: {
      failures: p.backend?.circuit_failures ?? 8,
      halfOpenAfterMs: (p.backend?.circuit_pause_seconds ?? 15) * 1000,
    },
  };
}

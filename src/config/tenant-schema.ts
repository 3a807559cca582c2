/**
 * The tenant file (config/tenants/<id>.yaml|json): one merchant, its backend and its policies.
 * Secrets are only ever references ({env} or {file}); a literal secret fails validation.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../schemas/common.js';
import { defaultBackendPolicy, type BackendPolicy } from '../tenancy/resilient-adapter.js';

export const SecretRef = Type.Union(
  [
    Type.Object({ env: Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$' }) }, { additionalProperties: false }),
    Type.Object({ file: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  ],
  { description: 'a reference {env: NAME} or {file: PATH}, never a literal secret' },
);
export type SecretRef = Static<typeof SecretRef>;

const Seconds = (min: number, dflt: number) => Type.Integer({ minimum: min, default: dflt });

const RateLimit = Type.Object(
  { max: Type.Integer({ minimum: 1 }), window_seconds: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

export const TenantConfig = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
    name: Type.String({ minLength: 1 }),
    /** Public base URL of this tenant's REST endpoint (no trailing slash). */
    base_url: Type.String({ pattern: '^https?://[^/?#]+(/[^?#]*[^/?#])?$' }),
    /** Host header values that route here; none + a single tenant = every host. */
    hosts: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Path prefix that routes here, e.g. /shops/flowers. */
    path_prefix: Type.Optional(Type.String({ pattern: '^(/[A-Za-z0-9._~-]+)+$' })),
    adapter: Type.Object(
      {
        type: StringEnum(['memory', 'shopify', 'woocommerce', 'rest']),
        settings: Type.Record(Type.String(), Type.Unknown()),
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
            type: StringEnum(['sandbox', 'handoff']),
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
          /** Private JWKs; the public halves are published in the profile. */
          keys: Type.Array(SecretRef),
          /** kid of the key that signs; the others only verify (rotation). */
          active_kid: Type.String(),
          sign_responses: Type.Optional(Type.Boolean()),
          verify_requests: Type.Optional(StringEnum(['off', 'optional', 'required'])),
        },
        { additionalProperties: false },
      ),
    ),
    links: Type.Optional(
      Type.Array(Type.Object({ type: Type.String(), url: Type.String({ format: 'uri' }), title: Type.Optional(Type.String()) }, { additionalProperties: false })),
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
              { timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })), attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) },
              { additionalProperties: false },
            ),
          ),
          /** Currency conversion rates for price filters: { "EUR": 1.08 } = 1 EUR is 1.08 of the store currency. */
          exchange_rates: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Number({ exclusiveMinimum: 0 }))),
        },
        { additionalProperties: false },
      ),
    ),
    /** Extra protocol versions served, to their version-specific profile URLs. */
    supported_versions: Type.Optional(Type.Record(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.String({ format: 'uri' }))),
  },
  { additionalProperties: false },
);
export type TenantConfig = Static<typeof TenantConfig>;

/** Policies with every default filled in. */
export interface Policies {
  cartTtlMs: number;
  checkoutTtlMs: number;
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

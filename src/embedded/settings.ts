/**
 * The tenant's `embedded` section (spec part 2 §6.2, §9): whether carts and checkouts may be shown
 * in an agent's own window through the gateway's page, which host origins may frame and message
 * that page, and which delegations the business allows per session kind.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../schemas/common.js';
import { ConfigError } from '../../adapters/kit/config-error.js';

/** Delegations defined for embedded checkouts (upstream ECP: each names the request the host answers). */
const CHECKOUT_DELEGATIONS = ['payment.instruments_change', 'payment.credential', 'fulfillment.address_change'] as const;

/** An exact web origin: scheme, host and optional port, nothing after. */
const Origin = Type.String({ pattern: '^https?://[^/?#\\s]+$', description: 'an exact origin such as https://agent.example' });

export const EmbeddedConfig = Type.Object(
  {
    enabled: Type.Boolean(),
    /** Origins allowed to frame the page (frame-ancestors) and exchange messages with it. */
    host_origins: Type.Array(Origin, { minItems: 1, uniqueItems: true }),
    /** Delegations the business allows; the protocol defines none for carts yet. */
    delegate: Type.Optional(
      Type.Object(
        {
          cart: Type.Optional(Type.Array(Type.String(), { maxItems: 0, description: 'no cart delegation is defined by the protocol' })),
          checkout: Type.Optional(Type.Array(StringEnum([...CHECKOUT_DELEGATIONS]), { uniqueItems: true })),
        },
        { additionalProperties: false },
      ),
    ),
    /** Lifetime of a page URL (its token); default one hour. */
    page_ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86_400 })),
  },
  { additionalProperties: false },
);
export type EmbeddedConfig = Static<typeof EmbeddedConfig>;

export type SessionKind = 'cart' | 'checkout';

/** The section resolved: present only when the transport is on. */
export interface EmbeddedSettings {
  hostOrigins: readonly string[];
  delegate: Readonly<Record<SessionKind, readonly string[]>>;
  pageTtlMs: number;
}

export function resolveEmbedded(config: EmbeddedConfig | undefined, where: string): EmbeddedSettings | undefined {
  if (!config?.enabled) return undefined;
  for (const [i, origin] of config.host_origins.entries()) {
    // The pattern admits what URL normalizes (upper case, default ports): frame-ancestors and
    // postMessage compare the serialized origin, so only that form is accepted.
    const serialized = URL.canParse(origin) ? new URL(origin).origin : undefined;
    if (serialized !== origin) {
      const hint = serialized ? ` (${serialized})` : '';
      throw new ConfigError(`${where}: $.embedded.host_origins[${i}] must be an origin exactly as browsers serialize it${hint}`);
    }
  }
  return {
    hostOrigins: config.host_origins,
    delegate: { cart: config.delegate?.cart ?? [], checkout: config.delegate?.checkout ?? [] },
    pageTtlMs: (config.page_ttl_seconds ?? 3600) * 1000,
  };
}

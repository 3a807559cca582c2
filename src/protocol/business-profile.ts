/**
 * Renders a tenant's business profile (spec part 1 §2.1, part 2 §2.7). Rendered once per
 * tenant at start-up (and on config reload), never per request.
 */
import type { Profile } from '../../schemas/profile.js';
import { A2A_BINDING, CAPABILITIES, SERVICE_BINDINGS, SHOPPING_SERVICE, type CapabilityName } from './capability-registry.js';
import { PROTOCOL_VERSION } from './version.js';

export interface PaymentHandlerInput {
  id: string;
  name: string;
  instruments: string[];
  config?: Record<string, unknown>;
}

export type PaymentHandlerRegistry = NonNullable<Profile['proto']['payment_handlers']>;

export interface ProfileInput {
  baseUrl: string;
  capabilities: ReadonlyMap<CapabilityName, Record<string, unknown>>;
  paymentHandlers: readonly PaymentHandlerInput[];
  publicKeys: ReadonlyArray<Record<string, unknown>>;
  supportedVersions: Readonly<Record<string, string>>;
  /** The embedded transport is on: the delegations the business allows, per session kind. */
  embedded?: { delegate: Readonly<Record<string, readonly string[]>> };
  /** The A2A transport is on: the profile names the agent card. */
  a2a?: boolean;
}

export const profilePath = '/.well-known/proto';
/** The REST binding's own description, generated from the operation table (transports/openapi). */
export const openApiPath = '/openapi.json';
export const agentCardPath = '/.well-known/agent-card.json';

/** Handlers keyed by their reverse-domain name, as the profile and checkout answers carry them. */
export function paymentHandlerRegistry(handlers: readonly PaymentHandlerInput[]): PaymentHandlerRegistry {
  const registry: PaymentHandlerRegistry = {};
  for (const handler of handlers) {
    (registry[handler.name] ??= []).push({
      id: handler.id,
      version: PROTOCOL_VERSION,
      available_instruments: handler.instruments.map((type) => ({ type })),
      ...(handler.config && { config: handler.config }),
    });
  }
  return registry;
}

export function renderBusinessProfile(input: ProfileInput): Profile {
  const service = (transport: keyof typeof SERVICE_BINDINGS, endpoint?: string, config?: Record<string, unknown>) => ({
    version: PROTOCOL_VERSION,
    spec: SERVICE_BINDINGS[transport].spec,
    transport,
    schema: SERVICE_BINDINGS[transport].schema,
    ...(endpoint && { endpoint }),
    ...(config && { config }),
  });
  // At service level `config.delegate` declares every delegation available; each cart and
  // checkout answer then confirms the ones allowed for that session (upstream embedded_config).
  const delegate = input.embedded && [...new Set(Object.values(input.embedded.delegate).flat())];
  const capabilities: NonNullable<Profile['proto']['capabilities']> = {};
  for (const [name, config] of input.capabilities) {
    const def = CAPABILITIES[name];
    capabilities[name] = [
      {
        version: PROTOCOL_VERSION,
        spec: def.spec,
        schema: def.schema,
        ...(def.extends && { extends: def.extends.filter((parent) => input.capabilities.has(parent)) }),
        ...(Object.keys(config).length > 0 && { config }),
      },
    ];
  }
  const otherVersions = Object.entries(input.supportedVersions).filter(([version]) => version !== PROTOCOL_VERSION);
  const keys = input.publicKeys.map((k) => ({ ...k })) as NonNullable<Profile['keys']>;
  return {
    proto: {
      version: PROTOCOL_VERSION,
      services: {
        [SHOPPING_SERVICE]: [
          // `schema` must stay on proto.dev (authority binding): the tenant's own generated description is linked from config.
          service('rest', input.baseUrl, { openapi: `${input.baseUrl}${openApiPath}` }),
          service('mcp', `${input.baseUrl}/mcp`),
          ...(input.a2a
            ? [
                {
                  version: PROTOCOL_VERSION,
                  spec: A2A_BINDING.spec,
                  transport: 'a2a' as const,
                  endpoint: `${input.baseUrl}${agentCardPath}`,
                },
              ]
            : []),
          // The page is reached through each session's continue_url, so the binding has no endpoint.
          ...(delegate ? [service('embedded', undefined, { delegate })] : []),
        ],
      },
      capabilities,
      payment_handlers: paymentHandlerRegistry(input.paymentHandlers),
      // Only other versions: a profile served from a supported_versions URI describes one version
      // and carries no supported_versions itself, so this profile may not list its own.
      ...(otherVersions.length > 0 && { supported_versions: Object.fromEntries(otherVersions) }),
    },
    keys,
    // 2026-04-08 peers read the key set under this name.
    signing_keys: keys,
  };
}

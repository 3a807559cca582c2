/**
 * The identity linking scopes a tenant offers (`{capability}:{scope}`), what they mean to a buyer,
 * and the capability's profile config (`config.scopes`, upstream identity-linking.md).
 */
import type { TenantConfig } from '../config/tenant-schema.js';
import { CAPABILITY } from '../protocol/capability-registry.js';
import { ORDER_MANAGE, ORDER_READ } from '../security/auth/scopes.js';

/** In plain words, for the consent page and the profile's scope descriptions. */
export const SCOPE_WORDS: Readonly<Record<string, string>> = {
  [ORDER_READ]: 'See your orders at this store, whichever assistant placed them',
  [ORDER_MANAGE]: 'Manage your orders at this store: cancel, return or change them after purchase',
};

/** The scopes of the capabilities the tenant enables (order scopes with the order capability). */
export function linkingScopes(config: TenantConfig): string[] {
  return CAPABILITY.order in config.capabilities ? [ORDER_READ, ORDER_MANAGE] : [];
}

/** `config` of dev.proto.common.identity_linking in the business profile. */
export function linkingProfileConfig(scopes: readonly string[]): Record<string, unknown> {
  return { scopes: Object.fromEntries(scopes.map((s) => [s, { description: { plain: SCOPE_WORDS[s] ?? s } }])) };
}

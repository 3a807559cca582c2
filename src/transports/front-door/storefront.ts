/**
 * A tenant's storefront as the front door uses it: the tenant file's `front_door` block read once
 * per tenant (a configuration reload builds new tenants, so the cache follows it).
 */
import type { Tenant } from '../../tenancy/tenant.js';

export interface Storefront {
  /** `https://shop.example.com`, normalized (lower case, no default port, no trailing slash). */
  origin: string;
  /** Send the merchant's Host instead of the store's. */
  preserveHost: boolean;
  /** Deadline for the store's response headers, and for each pause in its body. */
  timeoutMs: number;
}

/** Long enough for a slow page render, short enough that a hung store frees the buyer. */
const DEFAULT_TIMEOUT_MS = 30_000;

const read = new WeakMap<Tenant, Storefront | null>();

export function storefrontOf(tenant: Tenant | null): Storefront | undefined {
  if (!tenant) return undefined;
  let storefront = read.get(tenant);
  if (storefront === undefined) {
    const door = tenant.config.front_door;
    storefront = door
      ? {
          origin: new URL(door.upstream).origin,
          preserveHost: door.preserve_host ?? false,
          timeoutMs: door.timeout_ms ?? DEFAULT_TIMEOUT_MS,
        }
      : null;
    read.set(tenant, storefront);
  }
  return storefront ?? undefined;
}

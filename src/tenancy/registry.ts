/**
 * Routes a request to its tenant: the longest matching path prefix first, then the Host
 * header, then the only tenant when there is just one.
 */
import type { Tenant } from './tenant.js';

export interface Routed {
  tenant: Tenant;
  /** The URL with the tenant's path prefix removed. */
  url: string;
}

export class TenantRegistry {
  private readonly byHost = new Map<string, Tenant>();
  private readonly byPrefix: Array<[string, Tenant]>;

  constructor(readonly tenants: readonly Tenant[]) {
    for (const tenant of tenants) for (const host of tenant.config.hosts ?? []) this.byHost.set(host.toLowerCase(), tenant);
    this.byPrefix = tenants
      .filter((t) => t.config.path_prefix)
      .map((t) => [t.config.path_prefix!, t] as [string, Tenant])
      .sort((a, b) => b[0].length - a[0].length);
  }

  route(host: string | undefined, url: string): Routed | null {
    for (const [prefix, tenant] of this.byPrefix) {
      if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
        return { tenant, url: url.slice(prefix.length) || '/' };
      }
    }
    if (host) {
      const key = host.toLowerCase();
      const tenant = this.byHost.get(key) ?? this.byHost.get(key.replace(/:\d+$/, ''));
      if (tenant) return { tenant, url };
    }
    const only = this.tenants.length === 1 ? this.tenants[0] : undefined;
    return only ? { tenant: only, url } : null;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.tenants.map((t) => t.adapter.close?.()));
  }
}

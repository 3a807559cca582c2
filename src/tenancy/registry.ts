/**
 * Routes a request to its tenant: the longest matching path prefix first, then the Host
 * header, then the only tenant when there is just one. A prefix answers only where its tenant
 * does: on the tenant's own `hosts`, or, for a tenant without hosts, on any host no tenant lists
 * (an agency's shared domain), never on another merchant's domain. A configuration reload
 * replaces the whole registry; the old one counts the requests still using it and closes its
 * adapters only when they are done.
 */
import type { Tenant } from './tenant.js';

export interface Routed {
  tenant: Tenant;
  /** The URL with the tenant's path prefix removed. */
  url: string;
}

const WELL_KNOWN_METADATA = '/.well-known/oauth-';

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
    const owner = this.hostOwner(host);
    const inserted = this.wellKnownByPath(host, owner, url);
    if (inserted) return inserted;
    for (const [prefix, tenant] of this.byPrefix) {
      if (!answersOn(tenant, owner)) continue;
      if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
        return { tenant, url: url.slice(prefix.length) || '/' };
      }
    }
    if (owner) return { tenant: owner, url };
    const only = this.tenants.length === 1 ? this.tenants[0] : undefined;
    return only ? { tenant: only, url } : null;
  }

  /** The tenant whose `hosts` list the Host header, with or without its port. */
  private hostOwner(host: string | undefined): Tenant | undefined {
    if (!host || this.byHost.size === 0) return undefined;
    const key = host.toLowerCase();
    return this.byHost.get(key) ?? this.byHost.get(key.replace(/:\d+$/, ''));
  }

  /**
   * RFC 8414 §3.1 / RFC 9728 §3.1 path insertion: the metadata of an issuer (resource) with a path
   * is at `/.well-known/<name><path>`, so `/.well-known/oauth-authorization-server/t/acme` is the
   * tenant whose base URL path is `/t/acme` (the one on this host when several are).
   */
  private wellKnownByPath(host: string | undefined, owner: Tenant | undefined, url: string): Routed | null {
    if (!url.startsWith(WELL_KNOWN_METADATA)) return null; // most requests: no regex to run
    const match = /^\/\.well-known\/(oauth-authorization-server|oauth-protected-resource)(\/[^?]*[^/?])(\?.*)?$/.exec(url);
    if (!match) return null;
    const [, name, path, query = ''] = match;
    const candidates = this.tenants.filter((t) => answersOn(t, owner) && new URL(t.baseUrl).pathname.replace(/\/$/, '') === path);
    const onHost = candidates.find((t) => host !== undefined && new URL(t.baseUrl).host === host.toLowerCase());
    const tenant = onHost ?? (candidates.length === 1 ? candidates[0] : undefined);
    return tenant ? { tenant, url: `/.well-known/${name}${query}` } : null;
  }

  private inFlight = 0;
  private drained?: () => void;

  /** Marks a request as using this registry; call the returned function once when it ends. */
  hold(): () => void {
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.inFlight === 0) this.drained?.();
    };
  }

  /**
   * Closes the adapters once no request holds this registry, or after `graceMs` at the latest
   * (the same bound as a shutdown). Resolves to whether the requests drained in time.
   */
  async retire(graceMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const drained =
      this.inFlight === 0 ||
      (await new Promise<boolean>((resolve) => {
        this.drained = () => resolve(true);
        timer = setTimeout(() => resolve(false), graceMs);
      }));
    clearTimeout(timer);
    await this.close();
    return drained;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.tenants.map(async (t) => t.adapter.close?.()));
  }
}

/**
 * Whether `tenant` answers on a host `owner` lists (undefined: a host no tenant lists). A tenant
 * with hosts answers on them only; one without, on the hosts nobody claims (a single tenant
 * without hosts or prefix: every host).
 */
function answersOn(tenant: Tenant, owner: Tenant | undefined): boolean {
  return tenant.config.hosts?.length ? owner === tenant : owner === undefined;
}

/** Loads every tenant file and builds the registry that routes requests to them. */
import { ADAPTERS } from '../../adapters/registry.js';
import { loadTenantFiles } from '../config/load-tenants.js';
import { TenantRegistry } from './registry.js';
import { buildTenant, type TenantDeps } from './tenant.js';

/** Throws the first problem found; adapters already built for other tenants are closed first. */
export async function loadTenants(configDir: string, deps: TenantDeps): Promise<TenantRegistry> {
  const files = loadTenantFiles(
    configDir,
    (deps.adapters ?? ADAPTERS).map((a) => a.type),
  );
  const built = await Promise.allSettled(files.map((file) => buildTenant(file, deps)));
  const tenants = built.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = built.find((r) => r.status === 'rejected');
  if (failed) {
    await new TenantRegistry(tenants).close();
    throw failed.reason;
  }
  return new TenantRegistry(tenants);
}

/** Loads every tenant file and builds the registry that routes requests to them. */
import { loadTenantFiles } from '../config/load-tenants.js';
import { TenantRegistry } from './registry.js';
import { buildTenant, type TenantDeps } from './tenant.js';

export async function loadTenants(configDir: string, deps: TenantDeps): Promise<TenantRegistry> {
  const files = loadTenantFiles(configDir);
  return new TenantRegistry(await Promise.all(files.map((file) => buildTenant(file, deps))));
}

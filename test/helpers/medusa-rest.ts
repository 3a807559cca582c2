/**
 * Medusa through the generic REST adapter: examples/rest-tenants/tenants/medusa.yaml (a tenant file
 * and its mappings, no Medusa code in the gateway), pointed at the run's real Medusa server with the
 * seed's keys, built as the gateway builds it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createRestAdapter, type RestAdapter } from '../../adapters/rest/index.js';
import { RestSettings } from '../../adapters/rest/settings.js';
import type { TraceEvent } from '../../adapters/rest/steps.js';
import { compile } from '../../schemas/validator.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { answerProblem, type CheckedMethod } from '../../src/tenancy/adapter-answers.js';
import { STOREFRONT, type RunningMedusa } from './medusa-store.js';

const MEDUSA_REST_FILE = 'examples/rest-tenants/tenants/medusa.yaml';

/** The example tenant file, pointed at `url` (the store, or a fault proxy in front of it). */
export function medusaRestTenant(url: string): TenantConfig {
  const config = parseYaml(readFileSync(resolve(MEDUSA_REST_FILE), 'utf8')) as TenantConfig;
  config.adapter.settings = { ...config.adapter.settings, base_url: url, storefront_url: STOREFRONT };
  return config;
}

const medusaRestCredentials = (store: RunningMedusa) => ({
  publishable_key: store.seed.publishableKey,
  secret_key: store.seed.secretKey,
});

export async function medusaRestAdapter(
  store: RunningMedusa,
  options: { url?: string; trace?: (event: TraceEvent) => void } = {},
): Promise<RestAdapter> {
  const config = medusaRestTenant(options.url ?? store.url);
  const checked = compile<RestSettings>(RestSettings)(config.adapter.settings);
  if (!checked.ok) throw new Error(checked.message);
  return createRestAdapter(checked.value, {
    credentials: medusaRestCredentials(store),
    where: MEDUSA_REST_FILE,
    tenantId: config.id,
    now: Date.now,
    answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
    ...(options.trace && { trace: options.trace }),
  });
}

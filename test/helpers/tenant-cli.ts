/**
 * What an operator types to add the reference REST store (examples/rest-store) as a tenant with
 * `npm run tenant -- new`, and the step after it: the store's own API is mapped in the file, as
 * config/rest-demo/tenants/flowers.yaml maps it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument, parse as parseYaml } from 'yaml';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { FLOWERS_FILE } from './rest-store.js';

/** `--set` arguments of `tenant new --type rest` for the reference store at `origin`: where it is, how it signs. */
export const restStoreSettings = (origin: string): string[] =>
  [
    `base_url=${origin}/api/v2`,
    `storefront_url=${origin}`,
    'currencies=USD',
    'money=decimal',
    'auth.type=hmac',
    'auth.secret=api_secret',
    'auth.signature_header=X-Shop-Signature',
    'webhooks.secret=webhook_secret',
  ].flatMap((pair) => ['--set', pair]);

/** Writes the flowers mappings (operations, functions, paging, auth, webhooks) into a new REST tenant file, keeping its own references. */
export function mapLikeFlowers(file: string): void {
  const flowers = (parseYaml(readFileSync(FLOWERS_FILE, 'utf8')) as TenantConfig).adapter.settings;
  const doc = parseDocument(readFileSync(file, 'utf8'));
  for (const [name, value] of Object.entries(flowers))
    if (name !== 'base_url' && name !== 'storefront_url') doc.setIn(['adapter', 'settings', name], doc.createNode(value));
  writeFileSync(file, doc.toString());
}

/** A Medusa v2 store: Store API carts with the publishable key, Admin API orders with the secret key. */
import type { CredentialCheck } from '../definition.js';
import { defineAdapter } from '../definition.js';
import { CREDENTIALS, createMedusaAdapter, MedusaSettings } from './index.js';

interface MedusaCredentials {
  publishableKey: string;
  secretKey: string;
}

function checkCredentials(given: Record<string, string>): CredentialCheck<MedusaCredentials> {
  const publishableKey = given[CREDENTIALS.publishable];
  const secretKey = given[CREDENTIALS.secret];
  if (!publishableKey || !secretKey) {
    const needed = `${CREDENTIALS.publishable} and ${CREDENTIALS.secret}`;
    return { ok: false, message: `$.adapter.credentials needs ${needed} ({env} or {file} references to Medusa API keys)` };
  }
  return { ok: true, value: { publishableKey, secretKey } };
}

export const medusa = defineAdapter({
  type: 'medusa',
  settings: MedusaSettings,
  credentials: checkCredentials,
  create: (settings, credentials, context) =>
    createMedusaAdapter({ settings, ...credentials, store: context.store, tenantId: context.tenantId }),
});

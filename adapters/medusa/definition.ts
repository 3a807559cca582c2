/** A Medusa v2 store: Store API carts with the publishable key, Admin API orders with the secret key. */
import type { CredentialCheck } from '../definition.js';
import { defineAdapter } from '../definition.js';
import { CREDENTIALS, createMedusaAdapter, MedusaSettings } from './index.js';
import { MedusaCredentialNames } from './settings.js';

interface MedusaCredentials {
  publishableKey: string;
  secretKey: string;
  /** Present when the merchant installed the push subscriber (PROTO_WEBHOOK_SECRET on the Medusa side). */
  webhookSecret?: string;
}

function checkCredentials(given: Record<string, string>): CredentialCheck<MedusaCredentials> {
  const publishableKey = given[CREDENTIALS.publishable];
  const secretKey = given[CREDENTIALS.secret];
  if (!publishableKey || !secretKey) {
    const needed = `${CREDENTIALS.publishable} and ${CREDENTIALS.secret}`;
    return { ok: false, message: `$.adapter.credentials needs ${needed} ({env} or {file} references to Medusa API keys)` };
  }
  const webhookSecret = given[CREDENTIALS.webhook];
  return { ok: true, value: { publishableKey, secretKey, ...(webhookSecret && { webhookSecret }) } };
}

export const medusa = defineAdapter({
  type: 'medusa',
  settings: MedusaSettings,
  credentials: checkCredentials,
  credentialNames: MedusaCredentialNames,
  create: (settings, credentials, context) =>
    createMedusaAdapter({ settings, ...credentials, store: context.store, tenantId: context.tenantId, now: context.now }),
});

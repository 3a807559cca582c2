/** A WooCommerce store: REST API v3 with a consumer key, Store API carts, webhooks it signs. */
import type { CredentialCheck } from '../definition.js';
import { defineAdapter } from '../definition.js';
import { CREDENTIALS, createWooCommerceAdapter, WooCommerceSettings } from './index.js';
import { WooCommerceCredentialNames } from './settings.js';

interface WooCommerceCredentials {
  consumerKey: string;
  consumerSecret: string;
  webhookSecret?: string;
}

function checkCredentials(given: Record<string, string>): CredentialCheck<WooCommerceCredentials> {
  const consumerKey = given[CREDENTIALS.key];
  const consumerSecret = given[CREDENTIALS.secret];
  if (!consumerKey || !consumerSecret) {
    const needed = `${CREDENTIALS.key} and ${CREDENTIALS.secret}`;
    return { ok: false, message: `$.adapter.credentials needs ${needed} ({env} or {file} references to the REST API key)` };
  }
  const webhookSecret = given[CREDENTIALS.webhook];
  return { ok: true, value: { consumerKey, consumerSecret, ...(webhookSecret && { webhookSecret }) } };
}

export const woocommerce = defineAdapter({
  type: 'woocommerce',
  settings: WooCommerceSettings,
  credentials: checkCredentials,
  credentialNames: WooCommerceCredentialNames,
  create: (settings, credentials, context) =>
    createWooCommerceAdapter({ settings, ...credentials, store: context.store, tenantId: context.tenantId, now: context.now }),
});

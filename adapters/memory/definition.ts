/** The demo store: catalog, prices and rules from files, orders in the gateway's state store. */
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { anyCredentials, defineAdapter } from '../definition.js';
import { createMemoryAdapter } from './index.js';

export const memory = defineAdapter({
  type: 'memory',
  settings: Type.Object(
    {
      data_dir: Type.String({ minLength: 1 }),
      storefront_url: Type.String({ format: 'uri' }),
      /** How long placed orders are kept in the state store. */
      order_retention_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    },
    { additionalProperties: false },
  ),
  // Optional credential: webhook_secret signs and verifies the demo store's own webhooks (X-Demo-Webhook-Signature).
  credentials: anyCredentials,
  create: (settings, credentials, context) =>
    createMemoryAdapter({
      dataDir: resolve(context.baseDir, settings.data_dir),
      storefrontUrl: settings.storefront_url.replace(/\/+$/, ''),
      now: context.now,
      store: context.store,
      tenantId: context.tenantId,
      ...(settings.order_retention_days !== undefined && { orderRetentionMs: settings.order_retention_days * 86_400_000 }),
      ...(credentials.webhook_secret !== undefined && { webhookSecret: credentials.webhook_secret }),
    }),
  extras: (adapter) => ({ simulator: adapter, storefront: { url: adapter.storefrontUrl, dir: adapter.storefrontDir } }),
});

/** The demo store: catalog, prices and rules from files, orders in the gateway's state store. */
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { doc } from '../../schemas/common.js';
import { anyCredentials, defineAdapter } from '../definition.js';
import { createMemoryAdapter } from './index.js';

export const memory = defineAdapter({
  type: 'memory',
  settings: Type.Object(
    {
      data_dir: doc(
        Type.String({ minLength: 1 }),
        "The store's data files (catalog, prices, rules; config/demo), relative to the tenant file.",
      ),
      storefront_url: doc(Type.String({ format: 'uri' }), "The store's home page; a path (/demo-store) is relative to base_url."),
      order_retention_days: doc(
        Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
        'How long placed orders are kept in the state store.',
      ),
    },
    { additionalProperties: false },
  ),
  credentials: anyCredentials,
  credentialNames: Type.Object({
    webhook_secret: doc(Type.Optional(Type.String()), "Signs and verifies the demo store's own webhooks (X-Demo-Webhook-Signature)."),
  }),
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

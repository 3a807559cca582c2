/** The demo store: catalog, prices and rules from files, orders in the gateway's state store. */
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { ORDER_LINKS } from '../contract.js';
import { doc, StringEnum } from '../../schemas/common.js';
import { anyCredentials, defineAdapter } from '../definition.js';
import { ConfigError } from '../kit/config-error.js';
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
      prices_include_tax: doc(
        Type.Optional(Type.Boolean()),
        'The prices of catalog.yaml and shipping.yaml contain the tax of tax.yaml (a VAT-style store).',
      ),
      order_links: doc(
        Type.Optional(Type.Array(StringEnum(ORDER_LINKS), { uniqueItems: true })),
        "How its orders are tied to checkouts (default both): `reference` (the gateway's reference kept with the order), " +
          '`store_reference` (its own payment and cart ids). Without `reference` it plays a store that knows orders only by ' +
          'its own references.',
      ),
    },
    { additionalProperties: false },
  ),
  credentials: anyCredentials,
  credentialNames: Type.Object({
    webhook_secret: doc(Type.Optional(Type.String()), "Signs and verifies the demo store's own webhooks (X-Demo-Webhook-Signature)."),
  }),
  create: (settings, credentials, context) => {
    if (settings.order_links?.length === 0)
      throw new ConfigError(
        `${context.where}: $.adapter.settings.order_links is empty: the store would keep neither the gateway's reference ` +
          'nor a reference of its own with its orders, so no order placed on its pages could be matched to its checkout',
      );
    return createMemoryAdapter({
      dataDir: resolve(context.baseDir, settings.data_dir),
      storefrontUrl: settings.storefront_url.replace(/\/+$/, ''),
      now: context.now,
      store: context.store,
      tenantId: context.tenantId,
      ...(settings.order_retention_days !== undefined && { orderRetentionMs: settings.order_retention_days * 86_400_000 }),
      ...(credentials.webhook_secret !== undefined && { webhookSecret: credentials.webhook_secret }),
      ...(settings.prices_include_tax && { pricesIncludeTax: true }),
      ...(settings.order_links && { orderLinks: settings.order_links }),
    });
  },
  extras: (adapter) => ({ simulator: adapter, storefront: { url: adapter.storefrontUrl, dir: adapter.storefrontDir } }),
});

/** A Shopify shop: Storefront API for carts, Admin API for orders and webhooks. */
import { defineAdapter } from '../definition.js';
import { createShopifyAdapter } from './index.js';
import { checkCredentials, ShopifyCredentialNames, ShopifySettings, withDefaults } from './settings.js';

export const shopify = defineAdapter({
  type: 'shopify',
  settings: ShopifySettings,
  credentials: checkCredentials,
  credentialNames: ShopifyCredentialNames,
  create: (settings, credentials) => createShopifyAdapter(withDefaults(settings), credentials),
});

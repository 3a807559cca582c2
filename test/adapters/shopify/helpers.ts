/** The Shopify adapter on a fresh simulator, as a tenant would configure it. */
import { ShopifyAdapter } from '../../../adapters/shopify/index.js';
import { withDefaults, type ShopifyCredentials, type ShopifySettingsGiven } from '../../../adapters/shopify/settings.js';
import { startShopifySimulator, type ShopifySimulator, type ShopifySimulatorOptions } from '../../../simulators/shopify/server.js';

let shops = 0;

export interface ShopifySetup {
  sim: ShopifySimulator;
  adapter: ShopifyAdapter;
  close: () => Promise<void>;
}

/** Each setup gets its own shop domain (unless it names one), so several simulators can run in one test file. */
export async function shopifySetup(
  options: {
    shop?: string;
    grant?: boolean;
    markets?: Array<{ country: string; currency: string }>;
    settings?: Pick<ShopifySettingsGiven, 'carrier_rates'>;
    simulator?: ShopifySimulatorOptions;
  } = {},
): Promise<ShopifySetup> {
  const shop = options.shop ?? `petal-and-stem-${process.pid}-${++shops}.myshopify.com`;
  const sim = await startShopifySimulator({ shopDomain: shop, ...options.simulator });
  const { storefrontToken, adminToken, clientId, clientSecret } = sim.credentials;
  const credentials: ShopifyCredentials = options.grant
    ? { storefront_token: storefrontToken, client_id: clientId, client_secret: clientSecret }
    : { storefront_token: storefrontToken, admin_token: adminToken, webhook_secret: clientSecret };
  const adapter = new ShopifyAdapter(
    withDefaults({ shop, api_origin: sim.url, ...(options.markets && { markets: options.markets }), ...options.settings }),
    credentials,
  );
  return {
    sim,
    adapter,
    close: async () => {
      await adapter.close();
      await sim.close();
    },
  };
}

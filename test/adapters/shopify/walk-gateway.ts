/**
 * The gateway in front of the Shopify simulator as the walks drive it: a platform profile at
 * PROFILE whose order webhooks reach a receiver, the gateway listening on a free port, and the
 * shop's webhook subscriptions registered against it as a merchant registers them.
 */
import type { AddressInfo } from 'node:net';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import { platformProfile } from '../../helpers/platform.js';
import { startReceiver, WEBHOOK_PATH, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { shopifySetup, type ShopifySetup } from './helpers.js';

export const PROFILE = '/profiles/shopping-agent';
export const CHICAGO = {
  street_address: '233 S Wacker Dr',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60606',
};
export const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };

export interface ShopifyWalk {
  s: ShopifySetup;
  gw: TestGateway;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export async function shopifyWalk(): Promise<ShopifyWalk> {
  const receiver = await startReceiver();
  const s = await shopifySetup();
  const gw = await testGateway({
    adapter: s.adapter,
    keyring: await tenantKeyring(),
    tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] },
    webhooks: { pollMs: 5 },
  });
  const profile = platformProfile();
  profile.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: receiver.url(WEBHOOK_PATH) } } as { version: string },
  ];
  gw.platform.serve(PROFILE, profile);
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gw.app.server.address() as AddressInfo;
  await s.adapter.registerWebhooks(`http://127.0.0.1:${port}/webhooks/backend`);
  return {
    s,
    gw,
    receiver,
    async close() {
      await gw.close();
      await s.close();
      await receiver.close();
    },
  };
}

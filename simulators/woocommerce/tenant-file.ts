/**
 * A tenant file for a gateway in front of the simulated store (the demo and the bench write one):
 * credentials by {env} reference (WOO_CONSUMER_KEY, WOO_CONSUMER_SECRET, WOO_WEBHOOK_SECRET), the
 * payment handler the finishing mode needs.
 */
import { createServer } from 'node:net';

export const FINISHING_MODES = ['gateway_charged', 'store_charged', 'handoff'] as const;
export type Mode = (typeof FINISHING_MODES)[number];

const HANDLERS: Record<Mode, string> = {
  gateway_charged: '  - { id: sandbox, name: dev.proto.payments.sandbox, type: sandbox, instruments: [card] }',
  store_charged: '  - { id: woo-card, name: dev.proto.payments.store, type: store, instruments: [card] }',
  handoff: '  - { id: store-checkout, name: dev.proto.payments.handoff, type: handoff, instruments: [redirect] }',
};

/** The port PORT names, or a free one for PORT=0, so the tenant's base_url can carry it. */
export function freePort(wanted: number, host: string): Promise<number> {
  if (wanted !== 0) return Promise.resolve(wanted);
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export function tenantFile(base: string, storeUrl: string, mode: Mode): string {
  return `# Written for a gateway in front of the simulated WooCommerce store (the demo flower shop).
id: woo-demo
name: Petal & Stem (WooCommerce)
base_url: ${base}
adapter:
  type: woocommerce
  finishing: ${mode}
  settings:
    store_url: ${storeUrl}
    store_charged: { payment_method: simulated_card, payment_data_key: token }
  credentials:
    consumer_key: { env: WOO_CONSUMER_KEY }
    consumer_secret: { env: WOO_CONSUMER_SECRET }
    webhook_secret: { env: WOO_WEBHOOK_SECRET }
capabilities:
  dev.proto.shopping.catalog.search: {}
  dev.proto.shopping.catalog.lookup: {}
  dev.proto.shopping.cart: {}
  dev.proto.shopping.checkout: {}
  dev.proto.shopping.discount: {}
  dev.proto.shopping.fulfillment: {}
  dev.proto.shopping.order: {}
payment_handlers:
${HANDLERS[mode]}
policies:
  allow_loopback_profiles: true
signing:
  ephemeral_key: true
`;
}

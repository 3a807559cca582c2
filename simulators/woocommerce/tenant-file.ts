/**
 * A tenant file for a gateway in front of the simulated store (the demo and the bench write one):
 * credentials by {env} reference (WOO_CONSUMER_KEY, WOO_CONSUMER_SECRET, WOO_WEBHOOK_SECRET), the
 * payment handler the finishing mode needs.
 */
import { ALL_CAPABILITIES_YAML } from '../tenant-capabilities.js';

export const FINISHING_MODES = ['gateway_charged', 'store_charged', 'handoff'] as const;
export type Mode = (typeof FINISHING_MODES)[number];

const HANDLERS: Record<Mode, string> = {
  gateway_charged: '  - { id: sandbox, name: dev.proto.payments.sandbox, type: sandbox, instruments: [card] }',
  store_charged: '  - { id: woo-card, name: dev.proto.payments.store, type: store, instruments: [card] }',
  handoff: '  - { id: store-checkout, name: dev.proto.payments.handoff, type: handoff, instruments: [redirect] }',
};

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
${ALL_CAPABILITIES_YAML}payment_handlers:
${HANDLERS[mode]}
policies:
  allow_loopback_profiles: true
signing:
  ephemeral_key: true
`;
}

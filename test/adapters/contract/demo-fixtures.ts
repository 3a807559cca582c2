/**
 * The demo flower shop's data as the contract suite uses it (config/demo): the same for every
 * simulator that serves that shop. Each adapter's test adds what depends on its store (handlers,
 * credentials a store charges).
 */
import type { ContractFixtures } from './contract-suite.js';

export const DEMO_SHOP_FIXTURES = {
  currency: 'USD',
  searchText: 'flowers',
  product: { id: 'florist_tee', optionNames: ['Size', 'Color'], variantId: 'florist_tee_m_green' },
  sku: { value: 'FLW-ROSE-12', variantId: 'bouquet_roses' },
  handle: { value: 'red-rose-bouquet', productId: 'bouquet_roses' },
  line: { variantId: 'bouquet_roses', quantity: 2 },
  codes: { accepted: '10OFF', rejected: 'NOSUCHCODE', rejectedReason: 'invalid' },
  shippingAddress: {
    firstName: 'Jane',
    lastName: 'Doe',
    streetAddress: '123 Main St',
    locality: 'Chicago',
    region: 'IL',
    country: 'US',
    postalCode: '60601',
  },
  buyer: { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' },
} satisfies ContractFixtures;

/** Sandbox tokens of config/demo/payment_instruments.csv, for stores that charge them. */
export const DEMO_CARD_TOKENS = {
  accepted: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
  declined: { type: 'PAYMENT_GATEWAY', token: 'fail_token' },
};

/** The sandbox token whose charge the store asks the buyer to confirm (3-D Secure), for stores that model it. */
export const DEMO_CHALLENGE_TOKEN = { type: 'PAYMENT_GATEWAY', token: 'action_required_token' };

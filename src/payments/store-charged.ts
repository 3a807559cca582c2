/**
 * The store-charged handler, for stores that charge the buyer's credential themselves
 * (adapter finishing mode `store_charged`: WooCommerce's Store API checkout with `payment_data`,
 * a home-grown `POST /orders` with a token). The gateway takes nothing: complete passes the
 * credential to `placeOrder`, once, and never keeps it; the store's decline comes back as the
 * placement's `payment_declined`.
 */
import type { PaymentRecord } from '../../adapters/contract.js';
import type { ChargeResult, PaymentHandler } from './payment-handler.js';

export class StoreChargedHandler implements PaymentHandler {
  readonly type = 'store';
  readonly takesCredential = true;

  constructor(readonly id: string) {}

  async charge(): Promise<ChargeResult> {
    return { status: 'store_charges' };
  }

  /** The gateway never holds a capture: an interrupted placement is found by reference or undone. */
  async captured(): Promise<PaymentRecord | null> {
    return null;
  }

  async release(): Promise<void> {}
}

/**
 * The handoff handler, for stores whose backend cannot take a charge through an API (Shopify's
 * Admin API, for one): it takes no credential and never charges; completing hands the buyer to the
 * store's own checkout page (`requires_escalation` with `continue_url`), where the store takes
 * payment and places the order itself.
 */
import type { PaymentRecord } from '../../adapters/contract.js';
import type { ChargeResult, PaymentHandler } from './payment-handler.js';

export class HandoffHandler implements PaymentHandler {
  readonly type = 'handoff';
  readonly takesCredential = false;

  constructor(readonly id: string) {}

  async charge(): Promise<ChargeResult> {
    return { status: 'requires_buyer', reason: 'This store takes payment on its own checkout page.' };
  }

  async captured(): Promise<PaymentRecord | null> {
    return null;
  }

  async release(): Promise<void> {}
}

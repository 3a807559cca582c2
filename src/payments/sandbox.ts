/**
 * The sandbox handler, for demos and tests: no money moves. The credential token decides
 * (the flower shop's config/demo/payment_instruments.csv tokens, plus one for buyer action):
 *   success_token          captured
 *   fail_token             declined
 *   action_required_token  the buyer must confirm the payment on the store's page
 *   anything else          declined (not a sandbox token)
 * Captures are kept in the state store by reference, so every replica sees them and a reference
 * is captured once, whatever token a later attempt brings.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentRecord } from '../../adapters/contract.js';
import type { StateStore } from '../state/store.js';
import type { ChargeRequest, ChargeResult, PaymentHandler } from './payment-handler.js';

export const SANDBOX_TOKENS = {
  success: 'success_token',
  declined: 'fail_token',
  requiresAction: 'action_required_token',
} as const;

/** Captures outlive the checkout by far (reconciliation of a completion that was interrupted). */
const CAPTURE_TTL_MS = 90 * 86_400_000;

export class SandboxHandler implements PaymentHandler {
  readonly type = 'sandbox';
  readonly takesCredential = true;

  constructor(
    private readonly store: StateStore,
    private readonly tenantId: string,
    readonly id: string,
  ) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const earlier = await this.captured(request.reference);
    if (earlier) return { status: 'captured', payment: earlier };
    switch (request.instrument?.credential?.token) {
      case SANDBOX_TOKENS.success:
        return { status: 'captured', payment: await this.capture(request) };
      case SANDBOX_TOKENS.requiresAction:
        return { status: 'requires_buyer', reason: 'The card issuer asks the buyer to confirm this payment.' };
      case SANDBOX_TOKENS.declined:
        return { status: 'declined', reason: 'The card was declined.' };
      default:
        return { status: 'declined', reason: 'The credential is not a sandbox test token.' };
    }
  }

  async captured(reference: string): Promise<PaymentRecord | null> {
    return (await this.store.get<PaymentRecord>(this.key(reference)))?.value ?? null;
  }

  async release(reference: string): Promise<void> {
    await this.store.delete(this.key(reference));
  }

  /** The first capture of a reference wins; a concurrent one answers with it. */
  private async capture(request: ChargeRequest): Promise<PaymentRecord> {
    const display = request.instrument?.display;
    const record: PaymentRecord = {
      handlerId: this.id,
      transactionId: `sbx_${randomBytes(12).toString('hex')}`,
      amount: request.amount,
      ...(display && {
        display: { ...(display.brand && { brand: display.brand }), ...(display.last_digits && { lastDigits: display.last_digits }) },
      }),
    };
    if (await this.store.setIfAbsent(this.key(request.reference), record, CAPTURE_TTL_MS)) return record;
    const winner = await this.captured(request.reference);
    if (!winner) throw new Error(`sandbox capture of ${request.reference} vanished`);
    return winner;
  }

  private key(reference: string): string {
    return `payment:sandbox:${this.tenantId}:${this.id}:${reference}`;
  }
}

/**
 * The demo store charging the buyer's card itself (finishing mode store_charged), with the tokens
 * of config/demo/payment_instruments.csv:
 *   success_token          charged: the order is placed, paid
 *   fail_token             declined: nothing is placed
 *   action_required_token  the card issuer asks the buyer to confirm (3-D Secure): nothing is
 *                          charged yet; the buyer approves or fails on the store's payment page
 *                          ({storefront}/pay/{paymentId}), approved, the order is placed, paid
 *   anything else          declined
 * A payment waiting for the buyer is kept in the state store (every replica sees it); a new
 * placement for the same reference replaces it, so a reference still gets one order.
 */
import { randomBytes } from 'node:crypto';
import type { AdapterStore, PlaceOrderRequest } from '../contract.js';

const CARD_TOKENS = { charged: 'success_token', declined: 'fail_token', challenge: 'action_required_token' } as const;

export type CardOutcome = 'charged' | 'declined' | 'challenge';

export const cardOutcome = (token: string): CardOutcome =>
  token === CARD_TOKENS.charged ? 'charged' : token === CARD_TOKENS.challenge ? 'challenge' : 'declined';

export interface StorePayment {
  id: string;
  /** The placement the buyer is asked to confirm; never the credential. */
  request: Omit<PlaceOrderRequest, 'payment'>;
  status: 'waiting' | 'paid' | 'failed' | 'replaced';
  orderId?: string;
}

export interface PaymentBookOptions {
  store: AdapterStore;
  tenantId: string;
  retentionMs: number;
}

export class PaymentBook {
  constructor(private readonly options: PaymentBookOptions) {}

  private key(kind: 'payment' | 'payment-ref', id: string): string {
    return `adapter:memory:${this.options.tenantId}:${kind}:${id}`;
  }

  /** A new payment waiting for the buyer; the one waiting for the same reference is replaced. */
  async open(request: PlaceOrderRequest): Promise<StorePayment> {
    const { payment: _, ...placement } = request;
    const earlier = (await this.options.store.get<string>(this.key('payment-ref', request.reference)))?.value;
    if (earlier !== undefined) await this.settle(earlier, 'replaced', 'waiting');
    const payment: StorePayment = { id: `pay_${randomBytes(8).toString('hex')}`, request: placement, status: 'waiting' };
    await this.options.store.set(this.key('payment', payment.id), payment, this.options.retentionMs);
    await this.options.store.set(this.key('payment-ref', request.reference), payment.id, this.options.retentionMs);
    return payment;
  }

  async get(id: string): Promise<StorePayment | null> {
    return (await this.options.store.get<StorePayment>(this.key('payment', id)))?.value ?? null;
  }

  /** Moves the payment from `from` to `status`; false when it was not in `from` (settled meanwhile). */
  async settle(id: string, status: StorePayment['status'], from: StorePayment['status'], orderId?: string): Promise<boolean> {
    const current = await this.options.store.get<StorePayment>(this.key('payment', id));
    if (current?.value.status !== from) return false;
    const next = { ...current.value, status, ...(orderId && { orderId }) };
    return (await this.options.store.compareAndSet(this.key('payment', id), current.version, next, this.options.retentionMs)) !== null;
  }
}

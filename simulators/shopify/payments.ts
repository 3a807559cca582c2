/**
 * An order's payment as Shopify keeps it: transactions (Admin 2026-10 `OrderTransaction`, kinds
 * SALE / AUTHORIZATION / CAPTURE / REFUND / VOID, statuses SUCCESS / PENDING / FAILURE), and the
 * financial status derived from them (`Order.displayFinancialStatus`, enum
 * `OrderDisplayFinancialStatus`).
 *
 * What places an order unpaid, from Shopify's own descriptions:
 * - a manual payment method (bank deposit, cash on delivery, money order): "PENDING ... when manual
 *   payment methods are being used" (`OrderDisplayFinancialStatus.PENDING`); "Orders that accept
 *   manual payments are marked as unpaid ... After you receive payment ... you can mark the order
 *   as paid" (https://help.shopify.com/manual/payments/manual-payments);
 * - a payment provider that "needs time to complete the payment" (same enum value): an offsite or
 *   local payment method that reports pending;
 * - manual capture ("AUTHORIZED ... appears only for manual payment capture and indicates payments
 *   should be captured before the authorization period expires");
 * - `draftOrderComplete(paymentPending: true)` ("Whether the payment is pending").
 * The order reaches PAID by `orderMarkAsPaid` ("create a new sale transaction for the full
 * outstanding amount or capture an existing authorized transaction"), a capture, or the provider
 * confirming; each time Shopify sends `orders/paid` ("Occurs whenever an order is paid") and
 * `orders/updated`.
 */

export type TransactionKind = 'SALE' | 'AUTHORIZATION' | 'CAPTURE' | 'REFUND' | 'VOID';
type TransactionStatus = 'SUCCESS' | 'PENDING' | 'FAILURE';

export interface TransactionRecord {
  id: string;
  kind: TransactionKind;
  status: TransactionStatus;
  amount: number;
  gateway: string;
  /** Processed by a manual payment method (`OrderTransaction.manualPaymentGateway`). */
  manual: boolean;
  createdAt: string;
  parentId: string | null;
}

export interface PaymentState {
  /** `Order.paymentGatewayNames`, e.g. "shopify_payments", "Cash on Delivery (COD)". */
  gatewayNames: string[];
  transactions: TransactionRecord[];
}

/**
 * How the buyer paid on Shopify's checkout. `card` is a card through Shopify Payments, after a
 * 3-D Secure challenge when `threeDSecure` is set (a failed or abandoned challenge places no
 * order); `offsite` a redirect to a provider (PayPal, a bank) the buyer returns from, paid, still
 * pending, or cancelled (no order); `manual` a manual payment method.
 */
export type PaymentMethod =
  | { type: 'card'; threeDSecure?: 'pass' | 'fail' }
  | { type: 'offsite'; provider?: string; outcome?: 'paid' | 'pending' | 'cancelled' }
  | { type: 'manual'; name?: string };

/** Shopify's reserved names of the suggested manual payment methods (help.shopify.com, manual payments). */
export const MANUAL_METHODS = ['Bank Deposit', 'Cash on Delivery (COD)', 'Money Order'] as const;

/** Settings > Payments > Payment capture method: automatically at checkout, or manually (authorize only). */
export type CaptureMethod = 'automatic' | 'manual';

type NewTransaction = Omit<TransactionRecord, 'id' | 'createdAt'>;

const sum = (ts: TransactionRecord[]) => ts.reduce((s, t) => s + t.amount, 0);
const succeeded = (p: PaymentState, ...kinds: TransactionKind[]) =>
  p.transactions.filter((t) => t.status === 'SUCCESS' && kinds.includes(t.kind));

/** The first transactions of an order paid on the checkout with `method`. */
export function checkoutPayment(
  method: PaymentMethod,
  amount: number,
  capture: CaptureMethod,
): { gateway: string; opening: NewTransaction[] } {
  if (method.type === 'manual') {
    const gateway = method.name ?? MANUAL_METHODS[0];
    return { gateway, opening: [{ kind: 'SALE', status: 'PENDING', amount, gateway, manual: true, parentId: null }] };
  }
  const gateway = method.type === 'offsite' ? (method.provider ?? 'paypal') : 'shopify_payments';
  if (method.type === 'offsite' && method.outcome === 'pending')
    return { gateway, opening: [{ kind: 'SALE', status: 'PENDING', amount, gateway, manual: false, parentId: null }] };
  const kind = capture === 'manual' ? 'AUTHORIZATION' : 'SALE';
  return { gateway, opening: [{ kind, status: 'SUCCESS', amount, gateway, manual: false, parentId: null }] };
}

/** Money received: successful sales and captures (`Order.totalReceivedSet`). */
export const received = (p: PaymentState) => sum(succeeded(p, 'SALE', 'CAPTURE'));
export const refunded = (p: PaymentState) => sum(succeeded(p, 'REFUND'));

/** What is left to capture of one authorization (nothing once voided). */
function openAmount(p: PaymentState, authorization: TransactionRecord): number {
  const closing = p.transactions.filter((t) => t.parentId === authorization.id && t.status === 'SUCCESS');
  if (closing.some((t) => t.kind === 'VOID')) return 0;
  return Math.max(0, authorization.amount - sum(closing.filter((t) => t.kind === 'CAPTURE')));
}

/** Authorized and neither captured nor voided (`Order.totalCapturableSet`). */
export const capturable = (p: PaymentState) => succeeded(p, 'AUTHORIZATION').reduce((s, a) => s + openAmount(p, a), 0);

export function financialStatus(p: PaymentState, total: number): string {
  const got = received(p);
  const back = refunded(p);
  if (back > 0) return back >= got ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  if (got >= total) return 'PAID';
  if (got > 0) return 'PARTIALLY_PAID';
  if (capturable(p) > 0) return 'AUTHORIZED';
  if (succeeded(p, 'VOID').length) return 'VOIDED';
  return 'PENDING';
}

/** "Returns false if the order is already paid, is canceled, has pending Shopify Payments transactions" (`Order.canMarkAsPaid`). */
export function canMarkAsPaid(p: PaymentState, total: number, cancelled: boolean): boolean {
  const pendingShopifyPayments = p.transactions.some((t) => t.status === 'PENDING' && t.gateway === 'shopify_payments');
  return !cancelled && !pendingShopifyPayments && total - received(p) > 0;
}

/** `orderMarkAsPaid`: captures what is authorized, else a sale for what is outstanding. */
export function markAsPaidTransactions(p: PaymentState, total: number): NewTransaction[] {
  const outstanding = total - received(p);
  const authorization = succeeded(p, 'AUTHORIZATION').find((a) => openAmount(p, a) > 0);
  if (authorization)
    return [
      {
        kind: 'CAPTURE',
        status: 'SUCCESS',
        amount: Math.min(openAmount(p, authorization), outstanding),
        gateway: authorization.gateway,
        manual: false,
        parentId: authorization.id,
      },
    ];
  return [{ kind: 'SALE', status: 'SUCCESS', amount: outstanding, gateway: 'manual', manual: true, parentId: null }];
}

/** The open authorizations and pending sales a cancellation voids. */
export function voidTransactions(p: PaymentState): NewTransaction[] {
  const open = [
    ...succeeded(p, 'AUTHORIZATION').filter((a) => openAmount(p, a) > 0),
    ...p.transactions.filter((t) => t.kind === 'SALE' && t.status === 'PENDING'),
  ];
  return open.map((t) => ({ kind: 'VOID', status: 'SUCCESS', amount: 0, gateway: t.gateway, manual: t.manual, parentId: t.id }));
}

/**
 * Payments the buyer confirms on the store's own page, as card issuers ask (3-D Secure): a
 * `POST /orders` whose card needs it answers 202 with the payment and its page; nothing is charged
 * or placed yet. On the page (`GET /pay/{id}`, no API auth: buyers use it) the buyer approves, and
 * the store charges the card and places the order (announced with `order.created`, carrying the
 * cart and the payment), or fails, and the store places nothing (`payment.failed`). A new
 * `POST /orders` for the same cart replaces the payment waiting for it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CartBook } from './carts.js';
import { problemPage, thanksPage } from './checkout-page.js';
import type { OrderBook, Payment, StoreOrder } from './orders.js';
import type { WebhookSender } from './webhooks.js';

export interface StorePayment {
  id: string;
  cartId: string;
  status: 'requires_confirmation' | 'paid' | 'failed' | 'replaced';
  /** The order request the buyer confirms (the card stays with the store). */
  request: { reference?: string; expectedTotal?: number; customer: StoreOrder['customer']; payment: Payment };
  orderId?: string;
}

export class PaymentBook {
  private readonly payments = new Map<string, StorePayment>();

  /** A payment waiting for the buyer; the one waiting for the same cart is replaced. */
  open(cartId: string, request: StorePayment['request']): StorePayment {
    for (const earlier of this.payments.values())
      if (earlier.cartId === cartId && earlier.status === 'requires_confirmation') earlier.status = 'replaced';
    const payment: StorePayment = { id: `pay_${randomBytes(9).toString('base64url')}`, cartId, status: 'requires_confirmation', request };
    this.payments.set(payment.id, payment);
    return payment;
  }

  get(id: string): StorePayment | undefined {
    return this.payments.get(id);
  }
}

/** The payment as `POST /orders` answers it (202). */
export const paymentView = (payment: StorePayment, origin: string) => ({
  payment: {
    id: payment.id,
    status: payment.status,
    confirm_url: `${origin}/pay/${payment.id}`,
    message: 'Your card issuer asks you to confirm this payment.',
  },
  cart_id: payment.cartId,
});

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function confirmPage(payment: StorePayment): string {
  const form = (decision: string, label: string) =>
    `<form method="post" action="/pay/${escape(payment.id)}"><input type="hidden" name="decision" value="${decision}">` +
    `<button type="submit">${label}</button></form>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Confirm your payment — Petal & Stem</title></head>' +
    `<body><main><h1>Confirm your payment</h1><p>Your card issuer asks you to confirm this payment.</p>` +
    `${form('approve', 'Confirm')}${form('fail', 'Cancel')}</main></body></html>`
  );
}

export interface PaymentPageDeps {
  payments: PaymentBook;
  carts: CartBook;
  orders: OrderBook;
  webhooks: WebhookSender;
  announce(type: string, order: StoreOrder): void;
}

/** The buyer's payment pages. */
export function addPaymentPages(app: FastifyInstance, deps: PaymentPageDeps): void {
  const { payments, carts, orders, webhooks } = deps;
  const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html').send(body);
  const waiting = (id: string) => {
    const payment = payments.get(id);
    return payment?.status === 'requires_confirmation' ? payment : undefined;
  };
  app.get('/pay/:id', async (req, reply) => {
    const payment = waiting((req.params as { id: string }).id);
    return payment ? html(reply, 200, confirmPage(payment)) : html(reply, 404, problemPage('This payment is no longer waiting.'));
  });
  app.post('/pay/:id', async (req, reply) => {
    const payment = waiting((req.params as { id: string }).id);
    const cart = payment && carts.get(payment.cartId);
    if (!payment || !cart) return html(reply, 404, problemPage('This payment is no longer waiting.'));
    if ((req.body as { decision?: string } | undefined)?.decision !== 'approve') {
      payment.status = 'failed';
      webhooks.send('payment.failed', { payment_id: payment.id, cart_id: payment.cartId, reference: payment.request.reference ?? null });
      return html(reply, 402, problemPage('The payment was not confirmed; nothing was charged.'));
    }
    const outcome = orders.place(cart, carts.price(cart.input), { ...payment.request, confirmed: payment.id });
    if (outcome.status !== 'placed') return html(reply, 422, problemPage('Your cart cannot be ordered as it is.'));
    payment.status = 'paid';
    payment.orderId = outcome.order.id;
    if (outcome.created) deps.announce('order.created', outcome.order);
    return html(reply, 200, thanksPage(outcome.order.id));
  });
}

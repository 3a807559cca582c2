/**
 * Which handler takes the payment at complete, and with which instrument: the instrument marked
 * `selected` (else the first) goes to the handler its `handler_id` names. A store that cannot
 * record an order paid elsewhere (adapter `placesOrders` false), or that lists no handler, hands
 * the buyer over instead (handoff), and then no instrument is needed. Problems are recoverable
 * messages pointing at the instrument.
 */
import type { Message } from '../../schemas/common.js';
import type { InstrumentRequest, PaymentRequest } from '../../schemas/payment.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import { errorMessage } from '../protocol/messages.js';
import type { StateStore } from '../state/store.js';
import { HandoffHandler } from './handoff.js';
import type { PaymentHandler } from './payment-handler.js';
import { SandboxHandler } from './sandbox.js';

export type HandlerEntry = NonNullable<TenantConfig['payment_handlers']>[number];

export interface PaymentChoice {
  handler: PaymentHandler;
  /** Absent for a handler that takes no credential. */
  instrument?: InstrumentRequest;
  /** Position of `instrument` in the request's `payment.instruments`. */
  index?: number;
}

export interface PaymentSetup {
  handlers: readonly HandlerEntry[];
  /** The store records orders paid through a gateway handler (adapter `placesOrders`). */
  placesOrders: boolean;
  store: StateStore;
  tenantId: string;
}

export function paymentHandler(entry: Pick<HandlerEntry, 'id' | 'type'>, setup: Pick<PaymentSetup, 'store' | 'tenantId'>): PaymentHandler {
  switch (entry.type) {
    case 'sandbox':
      return new SandboxHandler(setup.store, setup.tenantId, entry.id);
    case 'handoff':
      return new HandoffHandler(entry.id);
  }
}

/** The handlers a checkout can be paid with: only handoff ones when the store cannot record an order paid here. */
export const offeredHandlers = (handlers: readonly HandlerEntry[], placesOrders: boolean): HandlerEntry[] =>
  handlers.filter((h) => placesOrders || h.type === 'handoff');

const missing = (content: string, path: string) => errorMessage('missing', content, 'recoverable', path);

/** The handler used without an instrument: the tenant's handoff handler, or an implicit one when the store cannot take a charge or lists no handler. */
function handoff(setup: PaymentSetup): PaymentHandler | undefined {
  const entry = setup.handlers.find((h) => h.type === 'handoff');
  if (entry) return paymentHandler(entry, setup);
  return !setup.placesOrders || setup.handlers.length === 0 ? new HandoffHandler('handoff') : undefined;
}

export function choosePayment(setup: PaymentSetup, payment: PaymentRequest | undefined): { choice?: PaymentChoice; messages: Message[] } {
  const instruments = payment?.instruments ?? [];
  const fallback = handoff(setup);
  if (fallback && (instruments.length === 0 || !setup.placesOrders)) return { choice: { handler: fallback }, messages: [] };
  if (instruments.length === 0) {
    const offered = setup.handlers.map((h) => `${h.id} (${h.instruments.join(', ')})`).join(', ');
    return { messages: [missing(`Send the buyer's payment instrument with its credential; this store takes ${offered}.`, '$.payment.instruments')] };
  }
  const index = Math.max(0, instruments.findIndex((i) => i.selected === true));
  const instrument = instruments[index]!;
  const path = `$.payment.instruments[${index}]`;
  const entry = setup.handlers.find((h) => h.id === instrument.handler_id);
  if (!entry) {
    const known = setup.handlers.map((h) => h.id).join(', ');
    return { messages: [errorMessage('payment_handler_unknown', `This store has no payment handler ${JSON.stringify(instrument.handler_id)} (it has ${known}).`, 'recoverable', `${path}.handler_id`)] };
  }
  if (!entry.instruments.includes(instrument.type)) {
    const content = `Payment handler ${entry.id} takes ${entry.instruments.join(', ')}, not ${JSON.stringify(instrument.type)}.`;
    return { messages: [errorMessage('payment_instrument_unsupported', content, 'recoverable', `${path}.type`)] };
  }
  const handler = paymentHandler(entry, setup);
  if (handler.takesCredential && !instrument.credential) {
    return { messages: [missing('The payment instrument needs the credential its payment handler issued.', `${path}.credential`)] };
  }
  return { choice: { handler, instrument, index }, messages: [] };
}

/**
 * Which handler takes the payment at complete, and with which instrument: the instrument marked
 * `selected` (else the first) goes to the handler its `handler_id` names. A tenant finishing by
 * handoff, or listing no handler, hands the buyer over instead, and then no instrument is needed;
 * so does a complete without instruments when the tenant lists a handoff handler. Problems are
 * recoverable messages pointing at the instrument.
 */
import type { FinishingMode } from '../../adapters/contract.js';
import type { Message } from '../../schemas/common.js';
import type { InstrumentRequest, PaymentRequest } from '../../schemas/payment.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import { errorMessage } from '../protocol/messages.js';
import { HandoffHandler } from './handoff.js';
import type { PaymentHandler } from './payment-handler.js';
import { handlerType, type HandlerSetup } from './registry.js';

export type HandlerEntry = NonNullable<TenantConfig['payment_handlers']>[number];

export interface PaymentChoice {
  handler: PaymentHandler;
  /** Absent for a handler that takes no credential. */
  instrument?: InstrumentRequest;
  /** Position of `instrument` in the request's `payment.instruments`. */
  index?: number;
}

export interface PaymentSetup extends HandlerSetup {
  handlers: readonly HandlerEntry[];
  /** How the tenant finishes checkouts (`adapter.finishing`, see tenancy/finishing.ts). */
  finishing: FinishingMode;
}

export const paymentHandler = (entry: Pick<HandlerEntry, 'id' | 'type'>, setup: HandlerSetup): PaymentHandler =>
  handlerType(entry.type).create(entry.id, setup);

const missing = (content: string, path: string) => errorMessage('missing', content, 'recoverable', path);

/**
 * The handler used without an instrument: the tenant's handoff handler, or an implicit one when
 * the tenant finishes by handoff or lists no handler.
 */
function handoff(setup: PaymentSetup): PaymentHandler | undefined {
  const entry = setup.handlers.find((h) => handlerType(h.type).finishing === 'handoff');
  if (entry) return paymentHandler(entry, setup);
  return setup.finishing === 'handoff' || setup.handlers.length === 0 ? new HandoffHandler('handoff') : undefined;
}

export function choosePayment(setup: PaymentSetup, payment: PaymentRequest | undefined): { choice?: PaymentChoice; messages: Message[] } {
  const instruments = payment?.instruments ?? [];
  const fallback = handoff(setup);
  if (fallback && (instruments.length === 0 || setup.finishing === 'handoff')) return { choice: { handler: fallback }, messages: [] };
  if (instruments.length === 0) {
    const offered = setup.handlers.map((h) => `${h.id} (${h.instruments.join(', ')})`).join(', ');
    return {
      messages: [missing(`Send the buyer's payment instrument with its credential; this store takes ${offered}.`, '$.payment.instruments')],
    };
  }
  const index = Math.max(
    0,
    instruments.findIndex((i) => i.selected === true),
  );
  const instrument = instruments[index]!;
  const path = `$.payment.instruments[${index}]`;
  const entry = setup.handlers.find((h) => h.id === instrument.handler_id);
  if (!entry) {
    const known = setup.handlers.map((h) => h.id).join(', ');
    return {
      messages: [
        errorMessage(
          'payment_handler_unknown',
          `This store has no payment handler ${JSON.stringify(instrument.handler_id)} (it has ${known}).`,
          'recoverable',
          `${path}.handler_id`,
        ),
      ],
    };
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

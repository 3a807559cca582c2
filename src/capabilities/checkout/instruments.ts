/**
 * What a checkout keeps and shows of the platform's payment instruments: display fields only.
 * The credential is dropped here, before anything is stored, echoed or logged; only complete reads
 * it, from its own request, for the one charge.
 */
import type { InstrumentDisplay, InstrumentRequest, PaymentInstrument } from '../../../schemas/payment.js';
import { normalizeAddress } from '../../protocol/postal-address.js';

const DISPLAY_MEMBERS: ReadonlyArray<keyof InstrumentDisplay> = [
  'brand',
  'last_digits',
  'rich_text_description',
  'email',
  'card_art',
  'description',
];

function displayOf(display: InstrumentRequest['display']): InstrumentDisplay | undefined {
  if (!display) return undefined;
  const shown: InstrumentDisplay = {};
  for (const member of DISPLAY_MEMBERS) if (display[member] !== undefined) shown[member] = display[member];
  return Object.keys(shown).length > 0 ? shown : undefined;
}

/** Instruments without credentials; an instrument sent without an id gets `pi_{position}`. */
export function shownInstruments(instruments: readonly InstrumentRequest[]): PaymentInstrument[] {
  return instruments.map((instrument, i) => {
    const display = displayOf(instrument.display);
    return {
      id: instrument.id ?? `pi_${i + 1}`,
      handler_id: instrument.handler_id,
      type: instrument.type,
      ...(instrument.selected !== undefined && { selected: instrument.selected }),
      ...(display && { display }),
      ...(instrument.billing_address && { billing_address: normalizeAddress(instrument.billing_address).address }),
    };
  });
}

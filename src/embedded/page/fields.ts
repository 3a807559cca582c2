/**
 * Labelled text fields and the values of a form, for the buyer and address forms, and the form's
 * words for the protocol's member names, which the store's messages use.
 */
import { h, uid } from './dom.js';

/** The label of each member the page has a field for. */
const LABELS: Record<string, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  phone_number: 'Phone',
  street_address: 'Street address',
  extended_address: 'Apartment, suite',
  address_locality: 'City',
  address_region: 'State or region',
  postal_code: 'Postal code',
  address_country: 'Country',
};

/** A store message in the form's words: `address_region` (or `context.address_region`) becomes “State or region”. */
export const inFormWords = (text: string): string =>
  text.replace(/\b(?:[a-z]+\.)*([a-z]+_[a-z_]+)\b/g, (written, name: string) => (LABELS[name] ? `“${LABELS[name]}”` : written));

export interface FieldSpec {
  name: string;
  /** Shown instead of LABELS[name] (with a hint such as "(optional)"). */
  label?: string;
  type?: string;
  autocomplete: string;
}

/** What the store asks of one field: whether it is required, and what it says about the value there. */
export interface FieldState {
  required: boolean;
  message?: string | undefined;
}

/** Text stays editable while an update is under way; what the buyer types survives re-renders (app.ts). */
export function field(spec: FieldSpec, value: string | undefined, key: string, state: FieldState): HTMLElement {
  const id = uid(spec.name);
  const hint = state.message === undefined ? undefined : uid('hint');
  return h(
    'div',
    { class: 'field' },
    h(
      'label',
      { for: id },
      spec.label ?? LABELS[spec.name] ?? spec.name,
      state.required ? h('span', { 'aria-hidden': 'true' }, ' *') : null,
    ),
    h('input', {
      id,
      name: spec.name,
      type: spec.type ?? 'text',
      autocomplete: spec.autocomplete,
      value: value ?? '',
      required: state.required,
      'aria-invalid': hint && 'true',
      'aria-describedby': hint,
      'data-key': `${key}-${spec.name}`,
    }),
    hint && h('p', { id: hint, class: 'field-message' }, state.message),
  );
}

/** The non-empty text values of a form, by field name. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, name) => {
    if (typeof value === 'string' && value.trim() !== '') values[name] = value.trim();
  });
  return values;
}

/** Labelled text fields and the values of a form, for the buyer and address forms. */
import { h, uid } from './dom.js';

export interface FieldSpec {
  name: string;
  label: string;
  type?: string;
  autocomplete: string;
  required?: boolean;
}

/** Text stays editable while an update is under way; what the buyer types survives re-renders (app.ts). */
export function field(spec: FieldSpec, value: string | undefined, key: string): HTMLElement {
  const id = uid(spec.name);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, spec.label, spec.required ? h('span', { 'aria-hidden': 'true' }, ' *') : null),
    h('input', {
      id,
      name: spec.name,
      type: spec.type ?? 'text',
      autocomplete: spec.autocomplete,
      value: value ?? '',
      required: spec.required,
      'data-key': `${key}-${spec.name}`,
    }),
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

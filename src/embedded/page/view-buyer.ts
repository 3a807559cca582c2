/** Buyer details: who the order is for and where the store writes to. */
import { h } from './dom.js';
import { field, formValues, type FieldSpec } from './fields.js';
import { messageList } from './view-messages.js';
import { formState, type ViewContext } from './view-context.js';

const FIELDS: FieldSpec[] = [
  { name: 'email', type: 'email', autocomplete: 'email' },
  { name: 'first_name', autocomplete: 'given-name' },
  { name: 'last_name', autocomplete: 'family-name' },
  { name: 'phone_number', type: 'tel', autocomplete: 'tel' },
];

export function buyerSection(ctx: ViewContext): HTMLElement {
  const buyer = ctx.resource.buyer ?? {};
  const { state, others } = formState(ctx.resource, '$.buyer', '$.buyer.', ctx.required.buyer);
  const form = h(
    'form',
    { class: 'grid-form', 'aria-labelledby': 'buyer-title' },
    ...FIELDS.map((spec) => field(spec, buyer[spec.name as keyof typeof buyer], 'buyer', state(spec.name))),
    h('div', { class: 'actions' }, h('button', { type: 'submit', 'data-key': 'buyer-save', disabled: ctx.busy }, 'Save contact details')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctx.edit({ part: 'buyer', buyer: formValues(form) });
  });
  return h('section', { class: 'card' }, h('h2', { id: 'buyer-title' }, 'Contact'), messageList(others, 'About the contact details'), form);
}

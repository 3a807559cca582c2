/**
 * How the order arrives: shipping (an address, then one option per group) or pickup (a store
 * location). With `fulfillment.address_change` delegated, the host picks the address instead.
 */
import { h, uid } from './dom.js';
import { methodRequests } from './edits.js';
import { field, formValues, type FieldSpec, type FieldState } from './fields.js';
import { formatMoney } from './money.js';
import { isLocation, type FulfillmentMethod, type PostalAddress } from './model.js';
import { messageList } from './view-messages.js';
import { formState, type ViewContext } from './view-context.js';

const ADDRESS: FieldSpec[] = [
  { name: 'first_name', autocomplete: 'shipping given-name' },
  { name: 'last_name', autocomplete: 'shipping family-name' },
  { name: 'street_address', autocomplete: 'shipping address-line1' },
  { name: 'extended_address', label: 'Apartment, suite (optional)', autocomplete: 'shipping address-line2' },
  { name: 'address_locality', autocomplete: 'shipping address-level2' },
  { name: 'address_region', autocomplete: 'shipping address-level1' },
  { name: 'postal_code', autocomplete: 'shipping postal-code' },
  { name: 'address_country', label: 'Country (2 letters)', autocomplete: 'shipping country' },
];

const TYPE_LABELS: Record<string, string> = { shipping: 'Ship to an address', pickup: 'Pick up in store' };

export function fulfillmentSection(ctx: ViewContext): HTMLElement | null {
  const fulfillment = ctx.resource.fulfillment;
  if (!fulfillment) return null;
  const types = [...new Set((fulfillment.available_methods ?? []).map((m) => m.type))];
  // Nothing chosen yet: shipping's address form is shown at once (saving it chooses shipping).
  const method: Partial<FulfillmentMethod> | undefined =
    fulfillment.methods[0] ?? (types.includes('shipping') ? { type: 'shipping' } : undefined);
  const addresses = (method?.destinations ?? []).filter((d) => !isLocation(d));
  const current: PostalAddress | undefined = addresses.find((d) => d.id === method?.selected_destination_id) ?? addresses[0];
  // The address form shows what the store says about each of its fields there; a delegated address has no form.
  const at =
    current && method?.destinations
      ? `$.fulfillment.methods[0].destinations[${method.destinations.findIndex((d) => d === current)}].`
      : undefined;
  const form = formState(
    ctx.resource,
    '$.fulfillment',
    ctx.delegated.has('fulfillment.address_change') ? undefined : at,
    ctx.required.address,
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'delivery-title' },
    h('h2', { id: 'delivery-title' }, 'Delivery'),
    types.length > 0 &&
      radios(
        'How would you like to get it?',
        'method',
        types.map((type) => ({ value: type, label: TYPE_LABELS[type] ?? type })),
        method?.type,
        ctx.busy,
        (type) => ctx.edit({ part: 'fulfillment', methods: [{ type }] }),
      ),
    messageList(form.others, 'About delivery'),
    method?.type === 'shipping' && shipping(ctx, method, current, form.state),
    method?.type === 'pickup' && pickup(ctx, method as FulfillmentMethod),
    method?.id !== undefined && options(ctx, method as FulfillmentMethod),
  );
}

function shipping(
  ctx: ViewContext,
  method: Partial<FulfillmentMethod>,
  current: PostalAddress | undefined,
  state: (name: string) => FieldState,
): HTMLElement {
  if (ctx.delegated.has('fulfillment.address_change')) {
    return h(
      'div',
      { class: 'address' },
      h('p', {}, current ? addressLine(current) : 'No address yet.'),
      h(
        'button',
        { type: 'button', 'data-key': 'address-change', disabled: ctx.busy, onclick: () => ctx.changeAddress() },
        current ? 'Change address' : 'Choose address',
      ),
    );
  }
  const form = h(
    'form',
    { class: 'grid-form', 'aria-label': 'Shipping address' },
    ...ADDRESS.map((spec) =>
      field(
        spec,
        current?.[spec.name as keyof PostalAddress] ?? (spec.name === 'address_country' ? 'US' : undefined),
        'ship',
        state(spec.name),
      ),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', 'data-key': 'address-save', disabled: ctx.busy }, 'Use this address')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = formValues(form);
    if (address.address_country) address.address_country = address.address_country.toUpperCase();
    ctx.edit({
      part: 'fulfillment',
      methods: [{ ...(method.id && { id: method.id, line_item_ids: method.line_item_ids }), type: 'shipping', destinations: [address] }],
    });
  });
  return form;
}

function pickup(ctx: ViewContext, method: FulfillmentMethod): HTMLElement | null {
  const places = method.destinations ?? [];
  if (places.length === 0) return null;
  return radios(
    'Pickup location',
    'pickup',
    places.map((place) => ({
      value: place.id ?? '',
      label: isLocation(place) ? place.name : addressLine(place),
      detail: isLocation(place) && place.address ? addressLine(place.address) : undefined,
    })),
    method.selected_destination_id ?? undefined,
    ctx.busy,
    (id) => ctx.edit({ part: 'fulfillment', methods: withMethod(ctx, method.id, (m) => ({ ...m, selected_destination_id: id })) }),
  );
}

function options(ctx: ViewContext, method: FulfillmentMethod): HTMLElement | null {
  const groups = (method.groups ?? []).filter((g) => (g.options ?? []).length > 0);
  if (groups.length === 0) return null;
  const { currency } = ctx.resource;
  return h(
    'div',
    {},
    ...groups.map((group, index) =>
      radios(
        groups.length > 1 ? `Delivery option ${index + 1}` : 'Delivery option',
        `option-${group.id}`,
        (group.options ?? []).map((o) => ({
          value: o.id,
          label: `${o.title} · ${formatMoney(o.totals.find((t) => t.type === 'total')?.amount ?? 0, currency)}`,
          detail: o.description,
        })),
        group.selected_option_id ?? undefined,
        ctx.busy,
        (id) =>
          ctx.edit({
            part: 'fulfillment',
            methods: withMethod(ctx, method.id, (m) => ({
              ...m,
              groups: m.groups?.map((g) => (g.id === group.id ? { ...g, selected_option_id: id } : g)),
            })),
          }),
      ),
    ),
  );
}

function withMethod(
  ctx: ViewContext,
  id: string,
  change: (m: ReturnType<typeof methodRequests>[number]) => ReturnType<typeof methodRequests>[number],
) {
  return methodRequests(ctx.resource.fulfillment!.methods).map((m) => (m.id === id ? change(m) : m));
}

interface Choice {
  value: string;
  label: string;
  detail?: string | undefined;
}

function radios(
  legend: string,
  name: string,
  choices: Choice[],
  selected: string | undefined,
  busy: boolean,
  pick: (value: string) => void,
): HTMLElement {
  const group = uid(name);
  return h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, legend),
    ...choices.map((choice) => {
      const id = uid(name);
      const input = h('input', {
        id,
        type: 'radio',
        name: group,
        value: choice.value,
        checked: choice.value === selected,
        disabled: busy,
        'data-key': `${name}-${choice.value}`,
      });
      input.addEventListener('change', () => input.checked && pick(choice.value));
      return h(
        'label',
        { for: id, class: 'choice' },
        input,
        h('span', {}, choice.label, choice.detail ? h('span', { class: 'muted block' }, choice.detail) : null),
      );
    }),
  );
}

function addressLine(a: PostalAddress): string {
  return [
    a.street_address,
    a.extended_address,
    a.address_locality,
    [a.address_region, a.postal_code].filter(Boolean).join(' '),
    a.address_country,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Line items with images and quantity fields, then discount codes with the store's answers. */
import { h, uid } from './dom.js';
import { formatMoney } from './money.js';
import type { LineItem } from './model.js';
import { messageList } from './view-messages.js';
import { messagesAt, type ViewContext } from './view-context.js';

export function linesSection(ctx: ViewContext): HTMLElement {
  const { resource } = ctx;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'lines-title' },
    h('h2', { id: 'lines-title' }, ctx.kind === 'cart' ? 'Your cart' : 'Items'),
    resource.line_items.length === 0
      ? h('p', {}, 'Nothing here yet.')
      : h('ul', { class: 'lines' }, ...resource.line_items.map((line, index) => lineRow(ctx, line, index))),
    messageList(messagesAt(resource, '$.line_items'), 'About the items'),
  );
}

function lineRow(ctx: ViewContext, line: LineItem, index: number): HTMLElement {
  const { currency } = ctx.resource;
  const id = uid('qty');
  const total = line.totals.find((t) => t.type === 'total')?.amount ?? line.item.price * line.quantity;
  const image = h('img', { src: line.item.image_url ?? '', alt: '', width: 64, height: 64, loading: 'lazy', decoding: 'async' });
  // Broken or missing pictures leave the tinted placeholder instead of a broken-image icon.
  image.addEventListener('error', () => image.remove());
  const quantity = h('input', {
    id,
    type: 'number',
    inputmode: 'numeric',
    min: 0,
    max: 999,
    value: line.quantity,
    'data-key': `qty-${line.id}`,
  });
  quantity.addEventListener('change', () => {
    const value = Number.parseInt(quantity.value, 10);
    if (Number.isInteger(value) && value >= 0 && value !== line.quantity)
      ctx.edit({ part: 'line_items', quantities: { [line.id]: value } });
  });
  return h(
    'li',
    { class: 'line', 'data-line': index },
    h('div', { class: 'thumb' }, line.item.image_url ? image : null),
    h(
      'div',
      { class: 'line-text' },
      h('span', { class: 'line-title' }, line.item.title),
      h('span', { class: 'muted' }, `${formatMoney(line.item.price, currency)} each`),
    ),
    h(
      'div',
      { class: 'qty' },
      h(
        'label',
        { for: id },
        h('span', { class: 'sr-only' }, `Quantity of ${line.item.title}`),
        h('span', { 'aria-hidden': 'true' }, 'Qty'),
      ),
      quantity,
    ),
    h('span', { class: 'line-total' }, formatMoney(total, currency)),
    h(
      'button',
      {
        type: 'button',
        class: 'link',
        'data-key': `remove-${line.id}`,
        disabled: ctx.busy,
        'aria-label': `Remove ${line.item.title}`,
        onclick: () => ctx.edit({ part: 'line_items', quantities: { [line.id]: 0 } }),
      },
      'Remove',
    ),
  );
}

export function discountsSection(ctx: ViewContext): HTMLElement | null {
  const discounts = ctx.resource.discounts;
  if (!discounts) return null;
  const codes = discounts.codes ?? [];
  const id = uid('code');
  const input = h('input', { id, name: 'code', autocomplete: 'off', autocapitalize: 'characters', 'data-key': 'discount-code' });
  const form = h(
    'form',
    { class: 'inline-form' },
    h('label', { for: id }, 'Discount code'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', 'data-key': 'discount-apply', disabled: ctx.busy }, 'Apply')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (code && !codes.includes(code)) ctx.edit({ part: 'discounts', codes: [...codes, code] });
  });
  const applied = new Map((discounts.applied ?? []).filter((a) => a.code).map((a) => [a.code!, a]));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'discounts-title' },
    h('h2', { id: 'discounts-title' }, 'Discounts'),
    codes.length > 0 &&
      h(
        'ul',
        { class: 'codes' },
        ...codes.map((code) => {
          const hit = applied.get(code);
          return h(
            'li',
            {},
            h('span', { class: 'code' }, code),
            h('span', { class: 'muted' }, hit ? `${hit.title}: −${formatMoney(hit.amount, ctx.resource.currency)}` : 'not applied'),
            h(
              'button',
              {
                type: 'button',
                class: 'link',
                'data-key': `code-remove-${code}`,
                'aria-label': `Remove code ${code}`,
                disabled: ctx.busy,
                onclick: () => ctx.edit({ part: 'discounts', codes: codes.filter((c) => c !== code) }),
              },
              'Remove',
            ),
          );
        }),
      ),
    messageList(messagesAt(ctx.resource, '$.discounts'), 'About the discount codes'),
    form,
  );
}

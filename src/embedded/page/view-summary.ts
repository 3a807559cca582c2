/** Totals as the store computed them, and the store's messages that belong to no one section. */
import { h } from './dom.js';
import { formatMoney } from './money.js';
import { messageList } from './view-messages.js';
import type { ViewContext } from './view-context.js';

const LABELS: Record<string, string> = {
  subtotal: 'Subtotal',
  items_discount: 'Item discounts',
  discount: 'Discount',
  fulfillment: 'Delivery',
  shipping: 'Delivery',
  tax: 'Tax',
  fee: 'Fees',
  total: 'Total',
};
const SECTION_PATHS = ['$.line_items', '$.discounts', '$.buyer', '$.fulfillment'];

export function summarySection(ctx: ViewContext): HTMLElement {
  const { resource } = ctx;
  const general = (resource.messages ?? []).filter((m) => !m.path || !SECTION_PATHS.some((p) => m.path!.startsWith(p)));
  return h(
    'section',
    { class: 'card summary', 'aria-labelledby': 'summary-title' },
    h('h2', { id: 'summary-title' }, 'Summary'),
    h(
      'dl',
      { class: 'totals' },
      ...resource.totals.flatMap((total) => [
        h(
          'dt',
          { class: total.type === 'total' ? 'grand' : '' },
          total.display_text ?? LABELS[total.type] ?? total.type.replace(/_/g, ' '),
        ),
        h('dd', { class: total.type === 'total' ? 'grand' : '', 'data-total': total.type }, formatMoney(total.amount, resource.currency)),
        // Sub-lines itemize their entry (the tax prices include, under the total): shown, never added.
        ...(total.lines ?? []).flatMap((sub) => [
          h('dt', { class: 'sub' }, sub.display_text),
          h('dd', { class: 'sub' }, formatMoney(sub.amount, resource.currency)),
        ]),
      ]),
    ),
    messageList(general, 'Notes from the store'),
  );
}

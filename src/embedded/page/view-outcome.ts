/** Where a session ends: the order confirmation, the handoff to the store's site, or an error. */
import { h } from './dom.js';
import type { Resource } from './model.js';

export function confirmation(resource: Resource, businessName: string): HTMLElement {
  const order = resource.order;
  return h(
    'section',
    { class: 'card outcome', 'aria-labelledby': 'outcome-title' },
    h('h2', { id: 'outcome-title', tabindex: -1 }, 'Thank you: your order is placed'),
    h('p', {}, `${businessName} received order `, h('strong', { 'data-order': order?.id ?? '' }, order?.id ?? ''), '.'),
    order?.permalink_url ? h('p', {}, h('a', { href: order.permalink_url, target: '_blank', rel: 'noopener' }, 'See your order')) : null,
  );
}

/** The buyer goes on at the store's own site: top-level navigation needs their click (the frame may not navigate the host). */
export function handoff(url: string, businessName: string, why: string): HTMLElement {
  return h(
    'section',
    { class: 'card outcome', 'aria-labelledby': 'outcome-title' },
    h('h2', { id: 'outcome-title', tabindex: -1 }, `Continue on ${businessName}’s site`),
    h('p', {}, why),
    h('p', {}, h('a', { class: 'button primary', href: url, target: '_top', 'data-key': 'handoff' }, 'Continue to the store')),
  );
}

export function problem(title: string, text: string, url: string | undefined): HTMLElement {
  return h(
    'section',
    { class: 'card outcome', role: 'alert', 'aria-labelledby': 'outcome-title' },
    h('h2', { id: 'outcome-title', tabindex: -1 }, title),
    h('p', {}, text),
    url ? h('p', {}, h('a', { href: url, target: '_top' }, 'Go to the store')) : null,
  );
}

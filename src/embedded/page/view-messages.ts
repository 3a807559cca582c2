/** The store's messages: errors as alerts, the rest as status text, each with its code for styling, in the form's words. */
import { h } from './dom.js';
import { inFormWords } from './fields.js';
import type { ProtoMessage } from './host-link.js';

export function messageList(messages: readonly ProtoMessage[], label: string): HTMLElement | null {
  if (messages.length === 0) return null;
  return h(
    'ul',
    { class: 'messages', 'aria-label': label },
    ...messages.map((m) => h('li', { class: `message message-${m.type}`, 'data-code': m.code }, inFormWords(m.content))),
  );
}

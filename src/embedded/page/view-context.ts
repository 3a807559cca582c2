/** What every view section gets: the session's state and the buyer's actions. */
import type { Edit } from './edits.js';
import { inFormWords, type FieldState } from './fields.js';
import type { ProtoMessage } from './host-link.js';
import type { Resource } from './model.js';

export interface PaymentChoice {
  /** The handler and instrument type the page builds an instrument for; absent when the host pays. */
  handlerId?: string;
  type?: string;
  token?: string;
}

export interface ViewContext {
  resource: Resource;
  kind: 'cart' | 'checkout';
  businessName: string;
  /** Delegations accepted in ready. */
  delegated: ReadonlySet<string>;
  /** The fields the store requires, by form. */
  required: { buyer: readonly string[]; address: readonly string[] };
  busy: boolean;
  edit(edit: Edit): void;
  pay(choice: PaymentChoice): void;
  changeAddress(): void;
  finishCart(): void;
}

/** Messages whose path starts with one of the prefixes (a section shows its own). */
export const messagesAt = (resource: Resource, ...prefixes: string[]) =>
  (resource.messages ?? []).filter((m) => m.path !== undefined && prefixes.some((prefix) => m.path!.startsWith(prefix)));

/**
 * A form's fields as the store sees them: required when the store requires them or one of its
 * errors is about them (path `${prefix}${field}`), with what it says there; and the section's
 * other messages, shown above the form.
 */
export function formState(
  resource: Resource,
  section: string,
  prefix: string | undefined,
  required: readonly string[],
): { state: (name: string) => FieldState; others: ProtoMessage[] } {
  const atField = new Map<string, string>();
  const others: ProtoMessage[] = [];
  for (const m of messagesAt(resource, section)) {
    const name = prefix !== undefined && m.type === 'error' && m.path!.startsWith(prefix) ? m.path!.slice(prefix.length) : '';
    if (/^[a-z_]+$/.test(name)) atField.set(name, inFormWords(m.content));
    else others.push(m);
  }
  return { state: (name) => ({ required: required.includes(name) || atField.has(name), message: atField.get(name) }), others };
}

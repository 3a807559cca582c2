/** What every view section gets: the session's state and the buyer's actions. */
import type { Edit } from './edits.js';
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
  busy: boolean;
  edit(edit: Edit): void;
  pay(choice: PaymentChoice): void;
  changeAddress(): void;
  finishCart(): void;
}

/** Messages whose path starts with one of the prefixes (a section shows its own). */
export const messagesAt = (resource: Resource, ...prefixes: string[]) =>
  (resource.messages ?? []).filter((m) => m.path !== undefined && prefixes.some((prefix) => m.path!.startsWith(prefix)));

/**
 * A checkout's fulfillment methods as the session keeps them: the platform's choices with the
 * business's ids. Groups and options are not kept: the store quotes them afresh every time, and
 * group ids can be read back into the store's group keys (see ids.ts).
 */
import type { FulfillmentMethodType } from '../../../adapters/contract.js';
import type { PostalAddress } from '../../../schemas/fulfillment.js';

export interface StoredDestination {
  id: string;
  /** Shipping: the normalized address. Pickup: absent (the id is the store's location id). */
  address?: PostalAddress;
}

export interface StoredMethod {
  id: string;
  type: FulfillmentMethodType;
  /** Lines the platform assigned; absent = every line no other method names. */
  lineIds?: string[];
  /** Shipping: the addresses sent. Pickup: the locations named (none = every store location is offered). */
  destinations: StoredDestination[];
  selectedDestinationId?: string;
  /** Selected option per store group key. */
  selections: Record<string, string>;
}

/** An option the platform asked for, to check against the quote (and apply where no group was named). */
export interface AskedOption {
  methodId: string;
  /** The group it was sent for; absent when no group of this method was named (a discovered option id). */
  key?: string;
  optionId: string;
  /** JSONPath of the request member, for messages. */
  path: string;
}

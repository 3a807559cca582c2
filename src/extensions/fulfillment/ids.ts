/**
 * The business's fulfillment ids (spec part 1 §4.3: methods, destinations and groups get their ids
 * from the business), all derived deterministically so they stay stable across updates:
 * - method: `{type}_{n}`, the smallest n free (a method resent with its id, or of a type the
 *   session already had, keeps its id: see protocol/stable-ids.ts assignIds);
 * - shipping destination: `dest_` + a hash of the normalized address (the same address is the
 *   same destination); a pickup destination's id is the store's location id (§4.5 item 7);
 * - group: `{methodId}.{base64url(group key)}`, the key being the store's stable group identity,
 *   so a group id can be read back into its method and key without storing anything.
 */
import { createHash } from 'node:crypto';
import type { PostalAddress } from '../../../schemas/fulfillment.js';
import { ADDRESS_MEMBERS } from '../../protocol/postal-address.js';

export function freshMethodId(type: string, used: ReadonlySet<string>): string {
  for (let n = 1; ; n++) if (!used.has(`${type}_${n}`)) return `${type}_${n}`;
}

/** `address` normalized (see protocol/postal-address.ts), so spelling differences of one address give one id. */
export function destinationId(address: PostalAddress): string {
  const canonical = JSON.stringify(ADDRESS_MEMBERS.map((member) => address[member] ?? null));
  return `dest_${createHash('sha256').update(canonical).digest('base64url').slice(0, 16)}`;
}

export const groupId = (methodId: string, key: string) => `${methodId}.${Buffer.from(key, 'utf8').toString('base64url')}`;

/** The group key of `id` when it is a group id of `methodId`. */
export function groupKeyOf(methodId: string, id: string): string | undefined {
  const prefix = `${methodId}.`;
  if (!id.startsWith(prefix)) return undefined;
  const key = Buffer.from(id.slice(prefix.length), 'base64url').toString('utf8');
  return groupId(methodId, key) === id ? key : undefined;
}

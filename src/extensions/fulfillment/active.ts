/**
 * The fulfillment extension's checkout members exist only for a caller whose negotiated
 * capabilities include it; its platform profile config says whether it takes several groups per
 * method (`supports_multi_group`, spec part 1 §4.5 items 3 and 8).
 */
import type { Caller } from '../../operations/context.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';

export const fulfillmentActive = (caller: Caller): boolean => caller.active.has(CAPABILITY.fulfillment);

export function supportsMultiGroup(caller: Caller): boolean {
  const entries = caller.profile.proto.capabilities?.[CAPABILITY.fulfillment] ?? [];
  return entries.some((entry) => entry.config?.supports_multi_group === true);
}

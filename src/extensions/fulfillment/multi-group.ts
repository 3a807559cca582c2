/**
 * Several fulfillment groups per method only when both can take them: the platform's profile
 * config for the extension says `supports_multi_group` (spec part 1 §4.5 items 3 and 8) and the
 * store declares `multiGroup`; otherwise one group per method (the store's fallback).
 */
import { CAPABILITY } from '../../protocol/capability-registry.js';
import type { ExtensionContext } from '../extension.js';

export function multiGroup(ctx: ExtensionContext): boolean {
  const entries = ctx.caller.profile.proto.capabilities?.[CAPABILITY.fulfillment] ?? [];
  return entries.some((entry) => entry.config?.supports_multi_group === true) && ctx.tenant.adapter.capabilities.multiGroup;
}

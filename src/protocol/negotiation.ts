/**
 * Server-selects capability negotiation (spec part 1 §1, §2.1): the active set is the
 * intersection of the business's and the platform's capabilities, with extensions pruned
 * until every remaining extension has at least one active parent.
 */
import type { PlatformProfile } from '../../schemas/profile.js';
import { schemaUrlBindsTo } from './authority.js';
import { CAPABILITIES, type CapabilityName } from './capability-registry.js';
import { ProtocolError } from './errors.js';
import { PROTOCOL_VERSION } from './version.js';

export function checkVersion(platform: PlatformProfile, extraVersions: Readonly<Record<string, string>>): void {
  const version = platform.proto.version;
  if (version !== PROTOCOL_VERSION && !Object.hasOwn(extraVersions, version)) {
    const supported = [PROTOCOL_VERSION, ...Object.keys(extraVersions)].join(', ');
    throw new ProtocolError(
      'version_unsupported',
      `platform protocol version ${version} is not supported; this business supports ${supported}`,
    );
  }
}

/** Names the platform declares, ignoring entries whose schema URL breaks authority binding. */
function declaredByPlatform(platform: PlatformProfile): Set<string> {
  const declared = new Set<string>();
  for (const [name, entries] of Object.entries(platform.proto.capabilities ?? {})) {
    if (entries.some((e) => e.schema === undefined || schemaUrlBindsTo(name, e.schema))) declared.add(name);
  }
  return declared;
}

export function negotiate(business: Iterable<CapabilityName>, platform: PlatformProfile): Set<CapabilityName> {
  const declared = declaredByPlatform(platform);
  const active = new Set([...business].filter((name) => declared.has(name)));
  let pruned = true;
  while (pruned) {
    pruned = false;
    for (const name of active) {
      const parents = CAPABILITIES[name].extends;
      if (parents && !parents.some((p) => active.has(p))) {
        active.delete(name);
        pruned = true;
      }
    }
  }
  return active;
}

/**
 * What an answer of an operation with capability `root` lists (upstream "Response Capability
 * Selection"): `root` and the active extensions of it, when `root` is active; nothing otherwise.
 */
export function relevantTo(active: ReadonlySet<CapabilityName>, root: CapabilityName): Set<CapabilityName> {
  if (!active.has(root)) return new Set();
  return new Set([root, ...[...active].filter((name) => CAPABILITIES[name].extends?.includes(root))]);
}

/** The `proto.capabilities` registry of a response. */
export function capabilityRegistry(active: ReadonlySet<CapabilityName>): Record<string, Array<{ version: string }>> {
  const registry: Record<string, Array<{ version: string }>> = {};
  for (const name of active) registry[name] = [{ version: PROTOCOL_VERSION }];
  return registry;
}

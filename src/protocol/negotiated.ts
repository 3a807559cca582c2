/**
 * Negotiation is a pure function of the business's capabilities and the platform's profile, and
 * a profile stays cached for minutes, so each (tenant, profile) pair is negotiated once and its
 * answer envelope prefixes (one per outcome and operation capability) serialized once. Keyed
 * weakly: a reloaded tenant or an evicted profile takes its entries with it.
 */
import type { PlatformProfile } from '../../schemas/profile.js';
import type { PaymentHandlerRegistry } from './business-profile.js';
import { CAPABILITY, type CapabilityName } from './capability-registry.js';
import { capabilityRegistry, checkVersion, negotiate, relevantTo } from './negotiation.js';
import { PROTOCOL_VERSION } from './version.js';

/** The envelope's `proto.status`: an answer, or a business outcome that failed (spec §7 layer 2). */
type Outcome = 'success' | 'error';

export interface Business {
  capabilities: ReadonlyMap<CapabilityName, unknown>;
  config: { supported_versions?: Record<string, string> };
  /** The `proto.payment_handlers` of checkout answers: the handlers a checkout can be paid with. */
  checkoutPaymentHandlers: PaymentHandlerRegistry;
}

export interface Negotiated {
  active: ReadonlySet<CapabilityName>;
  /** The active set as one string: callers with equal keys get equal answers. */
  key: string;
  /**
   * The answer body of an operation with capability `root`: the `proto` envelope for this caller
   * (the active capabilities relevant to `root`; payment handlers on checkout answers), then the body's members.
   * `services`: the service bindings of this one answer (a session's embedded binding).
   */
  envelope(outcome: Outcome, root: CapabilityName, body: Record<string, unknown>, services?: Record<string, unknown[]>): string;
}

const cache = new WeakMap<PlatformProfile, WeakMap<Business, Negotiated>>();

export function negotiated(business: Business, profile: PlatformProfile): Negotiated {
  let forProfile = cache.get(profile);
  const hit = forProfile?.get(business);
  if (hit) return hit;
  checkVersion(profile, business.config.supported_versions ?? {});
  const active = negotiate(business.capabilities.keys(), profile);
  // Per outcome and root capability, the envelope's `proto` serialized once, split where an
  // answer's own services go: `{"proto":{"version":…,"status":…` and `"capabilities":…}`.
  const parts = new Map<string, { head: string; tail: string }>();
  const partsOf = (outcome: Outcome, root: CapabilityName) => {
    const key = `${outcome} ${root}`;
    let found = parts.get(key);
    if (!found) {
      const relevant = relevantTo(active, root);
      const head = JSON.stringify({ version: PROTOCOL_VERSION, status: outcome });
      const tail = JSON.stringify({
        capabilities: capabilityRegistry(relevant),
        ...(relevant.has(CAPABILITY.checkout) && { payment_handlers: business.checkoutPaymentHandlers }),
      });
      found = { head: `{"proto":${head.slice(0, -1)},`, tail: tail.slice(1) };
      parts.set(key, found);
    }
    return found;
  };
  const entry: Negotiated = {
    active,
    key: [...active].sort().join(' '),
    envelope(outcome, root, body, services) {
      const { head, tail } = partsOf(outcome, root);
      // Per-answer services (a session's embedded binding) are the only part serialized afresh.
      const start = services ? `${head}"services":${JSON.stringify(services)},${tail}` : head + tail;
      const members = JSON.stringify(body);
      return members === '{}' ? `${start}}` : `${start},${members.slice(1)}`;
    },
  };
  if (!forProfile) cache.set(profile, (forProfile = new WeakMap()));
  forProfile.set(business, entry);
  return entry;
}

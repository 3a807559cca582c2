/**
 * `contextId` continuity (upstream binding: clients pass the agent's contextId on later turns):
 * a conversation remembers the last cart, checkout and order it produced, so a later action that
 * needs an id and names none (`{"action": "complete_checkout"}`) acts on them. Kept in the state
 * store, per tenant, owner (security/auth/principal.ts ownerOf: who the caller proved to be) and
 * context id, as long as a checkout lives: two callers that pick the same context id each have their own.
 */
import { CAPABILITY, type CapabilityName } from '../../protocol/capability-registry.js';
import { fingerprint } from '../../security/fingerprint.js';
import type { StateStore } from '../../state/store.js';
import type { Tenant } from '../../tenancy/tenant.js';

type Resources = Partial<Record<CapabilityName, string>>;

const SESSIONS: ReadonlySet<CapabilityName> = new Set([CAPABILITY.cart, CAPABILITY.checkout, CAPABILITY.order]);

export class Conversations {
  constructor(private readonly store: StateStore) {}

  private key(tenant: Tenant, owner: string, contextId: string): string {
    return `a2a:ctx:${tenant.id}:${fingerprint([owner, contextId]).slice(0, 32)}`;
  }

  async lastId(tenant: Tenant, owner: string, contextId: string, capability: CapabilityName): Promise<string | undefined> {
    const found = await this.store.get<Resources>(this.key(tenant, owner, contextId));
    return found?.value[capability];
  }

  /** Remembers the resources an answer names: its own id, and the order a completed checkout placed. */
  async remember(tenant: Tenant, owner: string, contextId: string, capability: CapabilityName, body: Record<string, unknown>) {
    const named: Resources = {};
    if (typeof body.id === 'string' && SESSIONS.has(capability)) named[capability] = body.id;
    const order = body.order as { id?: unknown } | undefined;
    if (typeof order?.id === 'string') named[CAPABILITY.order] = order.id;
    if (Object.keys(named).length === 0) return;
    const key = this.key(tenant, owner, contextId);
    const found = await this.store.get<Resources>(key);
    await this.store.set(key, { ...found?.value, ...named }, tenant.policies.checkoutTtlMs);
  }
}

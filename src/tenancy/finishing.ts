/**
 * Which of the three finishing modes a tenant uses (`adapter.finishing`), checked at start-up
 * against what its adapter declares (`capabilities.finishing`) and what its payment handlers
 * can do, so a tenant that could never complete a checkout fails with the field to fix.
 *
 *   gateway_charged  sandbox (gateway) handlers capture; the store records the order paid
 *   store_charged    `store` handlers: the credential goes to the store, which charges it
 *   handoff          no handler needed: complete hands the buyer to the store's checkout page
 *
 * Without the setting: handoff when no handler charges (none listed, or only handoff ones) and
 * the adapter can hand off; otherwise the adapter's first mode. A handoff tenant offers only its
 * handoff handlers; charging ones it lists stay unused.
 */
import type { AdapterCapabilities, FinishingMode } from '../../adapters/contract.js';
import { ConfigError } from '../config/config-error.js';
import type { TenantConfig } from '../config/tenant-schema.js';

/** The handler type each charging mode needs; handoff needs none. */
const CHARGING: Partial<Record<FinishingMode, 'sandbox' | 'store'>> = { gateway_charged: 'sandbox', store_charged: 'store' };

export function resolveFinishing(config: TenantConfig, kind: string, capabilities: AdapterCapabilities, file: string): FinishingMode {
  const declared = capabilities.finishing;
  const handlers = config.payment_handlers ?? [];
  const charging = handlers.filter((h) => h.type !== 'handoff');
  const mode = config.adapter.finishing ?? (charging.length === 0 && declared.includes('handoff') ? 'handoff' : declared[0]);
  if (!mode) throw new ConfigError(`${file}: the ${kind} adapter declares no finishing mode`);
  if (!declared.includes(mode)) {
    throw new ConfigError(
      `${file}: $.adapter.finishing "${mode}" is not supported by the ${kind} adapter (it supports ${declared.join(', ')})`,
    );
  }
  const needed = CHARGING[mode];
  // Handoff offers only handoff handlers: charging ones stay listed, unused (an adapter switch keeps the file valid).
  for (const handler of needed ? charging : []) {
    if (handler.type === needed) continue;
    const fits = Object.entries(CHARGING).find(([, type]) => type === handler.type)?.[0];
    throw new ConfigError(
      `${file}: $.payment_handlers[${handlers.indexOf(handler)}].type "${handler.type}" needs adapter.finishing ${fits}, not ${mode}`,
    );
  }
  if (needed && charging.length === 0) {
    throw new ConfigError(`${file}: $.adapter.finishing ${mode} needs a payment handler of type ${needed} in $.payment_handlers`);
  }
  return mode;
}

type HandlerEntry = NonNullable<TenantConfig['payment_handlers']>[number];

/** The handlers a checkout can be paid with: only handoff ones when the tenant finishes by handoff. */
export const offeredHandlers = (handlers: readonly HandlerEntry[], finishing: FinishingMode): HandlerEntry[] =>
  handlers.filter((h) => finishing !== 'handoff' || h.type === 'handoff');

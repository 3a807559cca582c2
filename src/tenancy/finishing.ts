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
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import { findHandlerType, handlerType, handlerTypeNames } from '../payments/registry.js';

type HandlerEntry = NonNullable<TenantConfig['payment_handlers']>[number];

/** The finishing mode a handler's type needs (handoff handlers fit every mode). */
const needs = (handler: Pick<HandlerEntry, 'type'>): FinishingMode => handlerType(handler.type).finishing;

export function resolveFinishing(config: TenantConfig, kind: string, capabilities: AdapterCapabilities, file: string): FinishingMode {
  const declared = capabilities.finishing;
  const handlers = config.payment_handlers ?? [];
  handlers.forEach((handler, i) => {
    if (!findHandlerType(handler.type)) {
      throw new ConfigError(
        `${file}: $.payment_handlers[${i}].type "${handler.type}" is not a payment handler type of this build ` +
          `(${handlerTypeNames().join(', ')})`,
      );
    }
  });
  const charging = handlers.filter((h) => needs(h) !== 'handoff');
  const mode = config.adapter.finishing ?? (charging.length === 0 && declared.includes('handoff') ? 'handoff' : declared[0]);
  if (!mode) throw new ConfigError(`${file}: the ${kind} adapter declares no finishing mode`);
  if (!declared.includes(mode)) {
    throw new ConfigError(
      `${file}: $.adapter.finishing "${mode}" is not supported by the ${kind} adapter (it supports ${declared.join(', ')})`,
    );
  }
  if (mode === 'handoff') return mode;
  // Handoff offers only handoff handlers: charging ones stay listed, unused (an adapter switch keeps the file valid).
  for (const handler of charging) {
    if (needs(handler) === mode) continue;
    throw new ConfigError(
      `${file}: $.payment_handlers[${handlers.indexOf(handler)}].type "${handler.type}" ` +
        `needs adapter.finishing ${needs(handler)}, not ${mode}`,
    );
  }
  if (charging.length === 0) {
    const fitting = handlerTypeNames().filter((name) => handlerType(name).finishing === mode);
    throw new ConfigError(
      `${file}: $.adapter.finishing ${mode} needs a payment handler of type ${fitting.join(' or ')} in $.payment_handlers`,
    );
  }
  return mode;
}

/** The handlers a checkout can be paid with: only handoff ones when the tenant finishes by handoff. */
export const offeredHandlers = (handlers: readonly HandlerEntry[], finishing: FinishingMode): HandlerEntry[] =>
  handlers.filter((h) => finishing !== 'handoff' || needs(h) === 'handoff');

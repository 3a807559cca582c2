/**
 * Payment handler types by tenant `payment_handlers[].type`, as adapters are by `adapter.type`
 * (adapters/registry.ts). Adding a type is its file (a class implementing PaymentHandler) and one
 * line below; start-up refuses a tenant file naming a type this build does not have.
 */
import type { FinishingMode } from '../../adapters/contract.js';
import type { StateStore } from '../state/store.js';
import { HandoffHandler } from './handoff.js';
import type { PaymentHandler } from './payment-handler.js';
import { SandboxHandler } from './sandbox.js';
import { StoreChargedHandler } from './store-charged.js';

/** What a handler may need from the tenant it serves. */
export interface HandlerSetup {
  store: StateStore;
  tenantId: string;
}

export interface HandlerType {
  /** How a tenant listing this type finishes checkouts (`adapter.finishing`, see tenancy/finishing.ts). */
  finishing: FinishingMode;
  create(id: string, setup: HandlerSetup): PaymentHandler;
}

const HANDLER_TYPES: Readonly<Record<string, HandlerType>> = {
  sandbox: { finishing: 'gateway_charged', create: (id, setup) => new SandboxHandler(setup.store, setup.tenantId, id) },
  handoff: { finishing: 'handoff', create: (id) => new HandoffHandler(id) },
  store: { finishing: 'store_charged', create: (id) => new StoreChargedHandler(id) },
};

export const handlerTypeNames = (): string[] => Object.keys(HANDLER_TYPES);

/** The registered type, or undefined when this build has none by that name. */
export const findHandlerType = (name: string): HandlerType | undefined =>
  Object.hasOwn(HANDLER_TYPES, name) ? HANDLER_TYPES[name] : undefined;

/** The type of a handler start-up already checked (a tenant entry, a session's recorded handler). */
export function handlerType(name: string): HandlerType {
  const type = findHandlerType(name);
  if (!type) throw new Error(`payment handler type "${name}" is not in this build`);
  return type;
}

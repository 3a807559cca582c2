/**
 * The order simulator an adapter may offer beyond the contract (the demo store does): it moves
 * placed orders along (ship, deliver, refund, ...) for demos and tests. The adapter declares its
 * actions with their parameters; the gateway serves them at `POST /simulate/orders/{id}/{action}`
 * (webhooks/simulation-route.ts) for the tenants that enable it, so no gateway code knows which
 * adapter simulates.
 */
import type { TSchema } from '@sinclair/typebox';
import type { OrderSnapshot } from './contract.js';

/** An action with its parameters, already validated against the action's schema. */
export interface SimulationRequest {
  type: string;
  [parameter: string]: unknown;
}

export interface OrderSimulator {
  /** Each action's parameters (the JSON body of its request), by action name. */
  readonly actions: Readonly<Record<string, TSchema>>;
  /** Returns the fresh snapshot; throws SimulationError for an unknown order or an action that does not apply. */
  simulate(orderId: string, action: SimulationRequest): Promise<OrderSnapshot>;
}

export class SimulationError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'SimulationError';
  }
}

/**
 * The order simulation API of stores whose adapter offers a simulator (the demo store, see
 * adapters/simulator.ts): `POST /simulate/orders/{id}/{action}` with the action's parameters as
 * the JSON body, validated with the schema the simulator declares for the action, e.g. the demo
 * store's `ship` {lines?, trackingNumber?, carrier?}, `deliver` {}, `refund` {amount, lines?, reason?}.
 * Enabled per tenant by a simulation secret (sent as a bearer token); elsewhere the path does
 * not exist. Each change is a fresh snapshot and an order-updated webhook to the platform.
 */
import type { FastifyInstance } from 'fastify';
import type { OrderSnapshot } from '../../adapters/contract.js';
import { SimulationError, type OrderSimulator, type SimulationRequest } from '../../adapters/simulator.js';
import { loadOrderRecord } from '../capabilities/order/order-record.js';
import { orderRefs, renderOrder } from '../capabilities/order/order-shape.js';
import type { GatewaySecret } from '../config/gateway-secret.js';
import { ProtocolError } from '../protocol/errors.js';
import type { StateStore } from '../state/store.js';
import { tenantOf } from '../transports/request-context.js';
import { compile, type Validator } from '../../schemas/validator.js';
import { newEventId } from '../capabilities/order/order-event.js';
import { enqueueOrderEvent } from '../capabilities/order/outbox.js';
import type { SimulationAccess } from '../tenancy/simulation-access.js';
import fp from 'fastify-plugin';

const SIMULATION_PATH = '/simulate/orders/:id/:action';

/** Compiled once per simulator. */
const compiled = new WeakMap<OrderSimulator, Map<string, Validator<object>>>();

function validatorsOf(simulator: OrderSimulator): Map<string, Validator<object>> {
  let validators = compiled.get(simulator);
  if (!validators) {
    validators = new Map(Object.entries(simulator.actions).map(([action, schema]) => [action, compile<object>(schema)]));
    compiled.set(simulator, validators);
  }
  return validators;
}

export interface SimulationDeps {
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
}

async function simulate(access: SimulationAccess, orderId: string, action: SimulationRequest): Promise<OrderSnapshot> {
  try {
    return await access.simulator.simulate(orderId, action);
  } catch (error) {
    if (!(error instanceof SimulationError)) throw error;
    throw error.code === 'not_found' ? new ProtocolError('not_found', error.message) : new ProtocolError('invalid_request', error.message);
  }
}

/** A Fastify plugin. */
async function addOrderSimulation(app: FastifyInstance, deps: SimulationDeps): Promise<void> {
  app.post(SIMULATION_PATH, async (req, reply) => {
    req.operation = 'simulate_order';
    const tenant = tenantOf(req);
    const access = tenant.simulation;
    if (!access) return reply.callNotFound();
    if (!access.admits(req.headers.authorization)) {
      throw new ProtocolError('invalid_credentials', "the order simulation needs Authorization: Bearer <the tenant's simulation secret>", {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    const { id, action } = req.params as { id: string; action: string };
    const validators = validatorsOf(access.simulator);
    const validate = validators.get(action);
    if (!validate) throw new ProtocolError('invalid_request', `action must be one of ${[...validators.keys()].join(', ')}`);
    const checked = validate(req.body ?? {});
    if (!checked.ok) throw new ProtocolError('invalid_request', checked.message);

    const order = await simulate(access, id, { type: action, ...checked.value });
    const record = await loadOrderRecord({ store: deps.store, tenant }, order.id);
    const eventId = newEventId();
    const queued =
      record !== null &&
      (await enqueueOrderEvent(deps.store, tenant, record, order, { id: eventId, kind: 'order_updated', occurredAt: deps.now() }));
    return reply.send({
      order: renderOrder(order, orderRefs({ tenant, secret: deps.secret }, order, record)),
      ...(queued && { event_id: eventId }),
    });
  });
}

export const orderSimulation = fp(addOrderSimulation, {
  name: 'order-simulation',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rest-errors', 'rate-limits'],
  decorators: { request: ['tenant', 'operation'] },
});

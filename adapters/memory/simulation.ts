/**
 * What happens to a demo order after it is placed, for demos and tests (the demo adapter's order
 * simulator, adapters/simulator.ts): shipments and deliveries append fulfillment events; refunds, returns and
 * cancellations append adjustments. Nothing is ever rewritten: a received return is a second,
 * completed adjustment.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FulfillmentEvent, OrderAdjustment, OrderLine, OrderSnapshot } from '../contract.js';
import { SimulationError } from '../simulator.js';
import type { StoredOrder } from './orders.js';

const Lines = Type.Array(
  Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), quantity: Type.Integer() }, { additionalProperties: false }),
  {
    minItems: 1,
    maxItems: 100,
  },
);
const Reason = Type.String({ minLength: 1, maxLength: 500 });
const params = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

/** The parameters of each action (the simulation API validates requests with them). */
export const SimulationParams = {
  /** Hands over `lines` (default: everything not yet fulfilled); with a part of a line, a partial fulfillment. */
  ship: params({
    lines: Type.Optional(Lines),
    trackingNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
  /** The latest shipment is on its way. */
  in_transit: params({}),
  /** The latest shipment arrived. */
  deliver: params({}),
  /** Money back (positive amount, minor units); with `lines`, those unfulfilled units leave the order. */
  refund: params({ amount: Type.Integer(), lines: Type.Optional(Lines), reason: Type.Optional(Reason) }),
  /** The buyer sends fulfilled units back: a pending return. */
  return: params({ lines: Lines, reason: Type.Optional(Reason) }),
  /** The store received the return `returnId`: the units leave the order. */
  receive_return: params({ returnId: Type.String({ minLength: 1, maxLength: 200 }) }),
  /** Every unfulfilled unit leaves the order. */
  cancel: params({ reason: Type.Optional(Reason) }),
};

type SimulationActionType = keyof typeof SimulationParams;

export type SimulationAction = { [K in SimulationActionType]: { type: K } & Static<(typeof SimulationParams)[K]> }[SimulationActionType];

type LineQuantities = Array<{ id: string; quantity: number }>;

const invalid = (message: string) => new SimulationError('invalid', message);

interface Context {
  now: string;
  storefrontUrl: string;
}

const unfulfilled = (l: OrderLine) => l.quantity.current - l.quantity.fulfilled;
const negate = (lines: LineQuantities) => lines.map((l) => ({ id: l.id, quantity: -l.quantity }));

/** Checks requested quantities against what each line allows. */
function checkLines(order: OrderSnapshot, lines: LineQuantities, allowed: (l: OrderLine) => number, what: string): void {
  if (lines.length === 0) throw invalid(`${what}: no lines given`);
  const asked = new Map<string, number>();
  for (const { id, quantity } of lines) {
    const line = order.lines.find((l) => l.id === id);
    if (!line) throw invalid(`${what}: the order has no line ${id}`);
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw invalid(`${what}: quantity of line ${id} must be a positive integer`);
    asked.set(id, (asked.get(id) ?? 0) + quantity);
    if (asked.get(id)! > allowed(line)) throw invalid(`${what}: line ${id} allows at most ${allowed(line)}`);
  }
}

function withLines(
  order: OrderSnapshot,
  lines: LineQuantities,
  change: (line: OrderLine, quantity: number) => OrderLine['quantity'],
): OrderLine[] {
  return order.lines.map((line) => {
    const quantity = lines.filter((l) => l.id === line.id).reduce((s, l) => s + l.quantity, 0);
    return quantity ? { ...line, quantity: change(line, quantity) } : line;
  });
}

function appendEvent(order: OrderSnapshot, event: Omit<FulfillmentEvent, 'id' | 'occurredAt'>, ctx: Context): FulfillmentEvent[] {
  return [...order.events, { id: `evt_${order.events.length + 1}`, occurredAt: ctx.now, ...event }];
}

function appendAdjustment(order: OrderSnapshot, adjustment: Omit<OrderAdjustment, 'id' | 'occurredAt'>, ctx: Context): OrderAdjustment[] {
  return [...order.adjustments, { id: `adj_${order.adjustments.length + 1}`, occurredAt: ctx.now, ...adjustment }];
}

/** Units of a line already sent back but not yet received. */
function pendingReturns(stored: StoredOrder, lineId: string): number {
  return stored.snapshot.adjustments
    .filter((a) => a.type === 'return' && a.status === 'pending' && !stored.completedReturns.includes(a.id))
    .flatMap((a) => a.lines ?? [])
    .filter((l) => l.id === lineId)
    .reduce((s, l) => s - l.quantity, 0);
}

function ship(stored: StoredOrder, action: Extract<SimulationAction, { type: 'ship' }>, ctx: Context): StoredOrder {
  const order = stored.snapshot;
  if (order.canceled) throw invalid('ship: the order is canceled');
  const lines = action.lines ?? order.lines.filter((l) => unfulfilled(l) > 0).map((l) => ({ id: l.id, quantity: unfulfilled(l) }));
  if (lines.length === 0) throw invalid('ship: everything is already fulfilled');
  checkLines(order, lines, unfulfilled, 'ship');
  const trackingNumber = action.trackingNumber ?? `${order.id.slice(-8).toUpperCase()}${String(order.events.length + 1).padStart(2, '0')}`;
  const carrier = action.carrier ?? stored.carrier;
  return {
    ...stored,
    snapshot: {
      ...order,
      lines: withLines(order, lines, (l, q) => ({ ...l.quantity, fulfilled: l.quantity.fulfilled + q })),
      events: appendEvent(
        order,
        {
          type: 'shipped',
          lines,
          trackingNumber,
          trackingUrl: `${ctx.storefrontUrl}/tracking/${trackingNumber}`,
          ...(carrier && { carrier }),
          description: 'Handed to the carrier',
        },
        ctx,
      ),
    },
  };
}

/** Repeats the latest shipment's lines and tracking with a new status. */
function follow(stored: StoredOrder, type: 'in_transit' | 'delivered', description: string, ctx: Context): StoredOrder {
  const order = stored.snapshot;
  const shipment = order.events.findLast((e) => e.type === 'shipped');
  if (!shipment) throw invalid(`${type}: nothing has been shipped`);
  // A shipment moves shipped -> in transit (any number of scans) -> delivered, never back.
  if (order.events.slice(order.events.indexOf(shipment)).some((e) => e.type === 'delivered')) {
    throw invalid(`${type}: the latest shipment (${shipment.trackingNumber ?? shipment.id}) was already delivered`);
  }
  const { id: _id, occurredAt: _at, type: _type, description: _d, ...rest } = shipment;
  return { ...stored, snapshot: { ...order, events: appendEvent(order, { ...rest, type, description }, ctx) } };
}

function refund(stored: StoredOrder, action: Extract<SimulationAction, { type: 'refund' }>, ctx: Context): StoredOrder {
  const order = stored.snapshot;
  const refunded = order.adjustments.filter((a) => a.type === 'refund').reduce((s, a) => s - (a.amount ?? 0), 0);
  const refundable = order.totals.total - refunded;
  if (!Number.isSafeInteger(action.amount) || action.amount < 1) throw invalid('refund: amount must be a positive integer (minor units)');
  if (action.amount > refundable) throw invalid(`refund: at most ${refundable} is left to refund`);
  if (action.lines) checkLines(order, action.lines, unfulfilled, 'refund');
  const lines = action.lines ?? [];
  return {
    ...stored,
    snapshot: {
      ...order,
      lines: withLines(order, lines, (l, q) => ({ ...l.quantity, current: l.quantity.current - q })),
      adjustments: appendAdjustment(
        order,
        {
          type: 'refund',
          status: 'completed',
          amount: -action.amount,
          ...(action.lines && { lines: negate(action.lines) }),
          ...(action.reason && { description: action.reason }),
        },
        ctx,
      ),
    },
  };
}

function sendBack(stored: StoredOrder, action: Extract<SimulationAction, { type: 'return' }>, ctx: Context): StoredOrder {
  const order = stored.snapshot;
  checkLines(order, action.lines, (l) => l.quantity.fulfilled - pendingReturns(stored, l.id), 'return');
  return {
    ...stored,
    snapshot: {
      ...order,
      adjustments: appendAdjustment(
        order,
        { type: 'return', status: 'pending', lines: negate(action.lines), description: action.reason ?? 'Return requested' },
        ctx,
      ),
    },
  };
}

function receiveReturn(stored: StoredOrder, returnId: string, ctx: Context): StoredOrder {
  const order = stored.snapshot;
  const pending = order.adjustments.find((a) => a.id === returnId && a.type === 'return' && a.status === 'pending');
  if (!pending) throw invalid(`receive_return: ${returnId} is not a return of this order`);
  if (stored.completedReturns.includes(returnId)) throw invalid(`receive_return: ${returnId} was already received`);
  const lines = negate(pending.lines!);
  return {
    completedReturns: [...stored.completedReturns, returnId],
    ...(stored.carrier && { carrier: stored.carrier }),
    snapshot: {
      ...order,
      lines: withLines(order, lines, (l, q) => ({ ...l.quantity, current: l.quantity.current - q, fulfilled: l.quantity.fulfilled - q })),
      adjustments: appendAdjustment(
        order,
        { type: 'return', status: 'completed', lines: pending.lines!, description: `Return ${returnId} received` },
        ctx,
      ),
    },
  };
}

function cancel(stored: StoredOrder, reason: string | undefined, ctx: Context): StoredOrder {
  const order = stored.snapshot;
  if (order.canceled) throw invalid('cancel: the order is already canceled');
  const lines = order.lines.filter((l) => unfulfilled(l) > 0).map((l) => ({ id: l.id, quantity: unfulfilled(l) }));
  if (lines.length === 0) throw invalid('cancel: everything is already fulfilled');
  return {
    ...stored,
    snapshot: {
      ...order,
      canceled: true,
      lines: withLines(order, lines, (l) => ({ ...l.quantity, current: l.quantity.fulfilled })),
      adjustments: appendAdjustment(
        order,
        { type: 'cancellation', status: 'completed', lines: negate(lines), description: reason ?? 'Canceled by the store' },
        ctx,
      ),
    },
  };
}

export function simulate(stored: StoredOrder, action: SimulationAction, ctx: Context): StoredOrder {
  switch (action.type) {
    case 'ship':
      return ship(stored, action, ctx);
    case 'in_transit':
      return follow(stored, 'in_transit', 'On its way', ctx);
    case 'deliver':
      return follow(stored, 'delivered', 'Delivered', ctx);
    case 'refund':
      return refund(stored, action, ctx);
    case 'return':
      return sendBack(stored, action, ctx);
    case 'receive_return':
      return receiveReturn(stored, action.returnId, ctx);
    case 'cancel':
      return cancel(stored, action.reason, ctx);
  }
}

/**
 * Wraps the demo store so a test can make things happen to a checkout: items selling out,
 * placements that fail before or after the order exists, stay pending or are refused. Counts
 * placements.
 */
import { BackendError, type Adapter, type PlaceOrderResult } from '../../../adapters/contract.js';
import { defaultBackendPolicy } from '../../../src/config/backend-policy.js';

/** How long a complete's attempt may still run (twice the default backend deadline): nobody places again before. */
export const ATTEMPT_LEASE_MS = 2 * defaultBackendPolicy.timeoutMs;

export interface AdapterControl {
  /** Variant ids the store suddenly cannot sell. */
  soldOut: Set<string>;
  /** Placements to fail before the store places anything. */
  failBefore: number;
  /** Placements to fail after the store placed the order (the answer is lost). */
  failAfter: number;
  /** Placements to answer `pending` after the store placed the order. */
  pending: number;
  /** The next placement is refused with this, without placing. */
  refuse?: Extract<PlaceOrderResult, { status: 'rejected' }>;
  placements: number;
}

export const adapterControl = (): AdapterControl => ({ soldOut: new Set(), failBefore: 0, failAfter: 0, pending: 0, placements: 0 });

export function controlled(control: AdapterControl) {
  return (adapter: Adapter): Adapter =>
    Object.assign(Object.create(adapter) as Adapter, {
      async quote(...[request, signal]: Parameters<Adapter['quote']>) {
        const kept = request.lines.filter((l) => !control.soldOut.has(l.variantId));
        const quote = await adapter.quote({ ...request, lines: kept }, signal);
        const gone = request.lines
          .filter((l) => control.soldOut.has(l.variantId))
          .map((l) => ({ lineId: l.lineId, code: 'out_of_stock' as const }));
        return { ...quote, lineProblems: [...quote.lineProblems, ...gone] };
      },
      async placeOrder(...[request, signal]: Parameters<Adapter['placeOrder']>) {
        control.placements += 1;
        if (control.failBefore > 0) {
          control.failBefore -= 1;
          throw new BackendError('backend placeOrder did not answer within 8000 ms', true);
        }
        if (control.refuse) {
          const refusal = control.refuse;
          delete control.refuse;
          return refusal;
        }
        const placed = await adapter.placeOrder(request, signal);
        if (control.failAfter > 0) {
          control.failAfter -= 1;
          throw new BackendError('the connection dropped before the answer', true);
        }
        if (control.pending > 0) {
          control.pending -= 1;
          return { status: 'pending' as const };
        }
        return placed;
      },
    });
}

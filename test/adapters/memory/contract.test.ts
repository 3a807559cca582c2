/**
 * The demo store through the shared adapter contract suite, as it is and as a store that knows
 * orders only by its own references and one whose prices include tax. Its "simulator" is in-process: the
 * faults wrap the adapter object (what an HTTP adapter would throw for a 429, a 5xx, a garbage
 * body or a hang), the handoff is paid through the storefront's own purchase, and the store's
 * webhooks are signed with a test secret.
 */
import { BackendError, type Adapter } from '../../../adapters/contract.js';
import { runAdapterContract, type BackendFault, type SimulatorControls } from '../contract/contract-suite.js';
import { DEMO_CARD_TOKENS, DEMO_CHALLENGE_TOKEN, DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { FAULTY_METHODS } from '../../reliability/helpers/faulty.js';
import { demoStore, type DemoStoreOptions } from './fixtures.js';

const WEBHOOK_SECRET = 'demo-store-webhook-secret';

/** The adapter with the next calls failing as `faults` says, whatever method they are. */
function withFaults(adapter: Adapter, faults: BackendFault[]): Adapter {
  const fail = async (signal: AbortSignal | undefined): Promise<unknown> => {
    switch (faults.shift()) {
      case 'throttle':
        throw new BackendError('store answered 429 Too Many Requests', true, 5);
      case 'server_error':
        throw new BackendError('store answered 502 Bad Gateway', true);
      case 'garbage':
        return '<html><body>502 Bad Gateway</body></html>';
      case 'hang':
        return new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(new BackendError('aborted', true)), { once: true }),
        );
      default:
        return undefined;
    }
  };
  const wrapped = Object.create(adapter) as Record<string, unknown>;
  // The faults stand for a store across the network (a hang waits on a socket): its reads get a deadline.
  wrapped.localReads = false;
  for (const method of FAULTY_METHODS) {
    const real = (adapter as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!.bind(adapter);
    wrapped[method] = async (...args: unknown[]) => {
      if (faults.length === 0) return real(...args);
      const signal = args.find((a): a is AbortSignal => a instanceof AbortSignal);
      return fail(signal);
    };
  }
  return wrapped as unknown as Adapter;
}

const VARIANTS: Array<[string, Omit<DemoStoreOptions, 'webhookSecret'>]> = [
  ['memory', {}],
  ['memory (store references only)', { orderLinks: ['store_reference'] }],
  ['memory (prices include tax)', { pricesIncludeTax: true }],
];

for (const [name, options] of VARIANTS)
  runAdapterContract(name, async () => {
    const { adapter } = await demoStore({ ...options, webhookSecret: WEBHOOK_SECRET });
    const faults: BackendFault[] = [];
    const controls: SimulatorControls = {
      failNext: (fault, count = 1) => faults.push(...Array<BackendFault>(count).fill(fault)),
      reset: () => void faults.splice(0),
      async payHandoff({ url, address, buyer }) {
        const { orderId } = await adapter.purchase(url, address, buyer);
        return { orderId, delivery: await adapter.webhookFor('order.created', orderId) };
      },
      async confirmPayment({ continueUrl }, outcome) {
        const confirmed = await adapter.confirmPayment(continueUrl, outcome);
        return confirmed && { orderId: confirmed.orderId, delivery: await adapter.webhookFor('order.created', confirmed.orderId) };
      },
      async shipOrder(orderId) {
        await adapter.simulate(orderId, { type: 'ship', trackingNumber: '1Z999', carrier: 'UPS' });
        return adapter.webhookFor('order.updated', orderId);
      },
      pingDelivery: () => null,
    };
    return {
      adapter: withFaults(adapter, faults),
      fixtures: {
        ...DEMO_SHOP_FIXTURES,
        gatewayHandlerId: 'sandbox',
        storeCharged: { handlerId: 'store_card', ...DEMO_CARD_TOKENS, challenge: DEMO_CHALLENGE_TOKEN },
      },
      controls,
      close: async () => undefined,
    };
  });

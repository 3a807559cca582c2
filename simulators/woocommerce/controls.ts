/**
 * What a test (or the demo) does to the store behind the API's back: a buyer paying on the
 * payment page, the merchant shipping, refunding or changing an order in wp-admin, a webhook
 * delivery produced for a given order, failures and latency, the log of calls.
 */
import type { CartSessions } from './carts.js';
import type { Faults, FaultSpec } from './faults.js';
import type { OrderStatus, SimOrder } from './model.js';
import type { OrderBook } from './orders.js';
import { orderPaymentResult } from './payment-page.js';
import type { TrackingMode } from './rest-api.js';
import type { SeedIndex } from './seed.js';
import { orderShape } from './shapes/rest-order.js';
import type { WooStore } from './store.js';
import { signedRequest, type WebhookDispatcher } from './webhooks.js';

export interface SimulatorSettings {
  tracking: TrackingMode;
  variationsEndpoint: boolean;
  packagesByClass: boolean;
  permalinks: 'pretty' | 'plain';
  referenceSnippet: boolean;
}

interface Parts {
  store: WooStore;
  index: SeedIndex;
  orders: OrderBook;
  webhooks: WebhookDispatcher;
  sessions: CartSessions;
  faults: Faults;
  settings: SimulatorSettings;
  now: () => number;
}

export class SimulatorControls {
  constructor(private readonly parts: Parts) {}

  get settings(): SimulatorSettings {
    return this.parts.settings;
  }

  private order(id: number | string): SimOrder {
    const order = this.parts.store.orders.get(Number(id));
    if (!order) throw new Error(`no order ${id} in the simulated store`);
    return order;
  }

  /** Fails the next matching requests (429, 5xx, HTML, PHP warning, truncated JSON, a hang). */
  fail(spec: FaultSpec): void {
    this.parts.faults.add(spec);
  }

  clearFaults(): void {
    this.parts.faults.clear();
  }

  setLatency(ms: number): void {
    this.parts.faults.latencyMs = ms;
  }

  /** Calls received since the last reset: method and route (e.g. GET /wc/v3/products). */
  calls(): Array<{ method: string; route: string }> {
    return this.parts.faults.calls.map(({ method, route }) => ({ method, route }));
  }

  /** The same calls with when each arrived and was answered (ms), for timing what a caller waited on. */
  timedCalls(): Array<{ method: string; route: string; at: number; end?: number }> {
    return this.parts.faults.calls.map((c) => ({ ...c }));
  }

  resetCalls(): void {
    this.parts.faults.calls.length = 0;
  }

  /** The buyer pays on the order's payment page with a card token. */
  payOrder(id: number | string, token = 'success_token'): SimOrder {
    const order = this.order(id);
    const gateway = this.parts.store.gateways.find((g) => g.id === 'simulated_card')!;
    orderPaymentResult(this.parts.store, this.parts.orders, order, gateway, [{ key: 'token', value: token }]);
    return order;
  }

  setOrderStatus(id: number | string, status: OrderStatus): SimOrder {
    const order = this.order(id);
    this.parts.orders.setStatus(order, status);
    return order;
  }

  /** The merchant ships (all lines unless given) with tracking, as a fulfillment or a tracking item. */
  ship(
    id: number | string,
    input: { trackingNumber: string; provider: string; trackingUrl: string; lines?: Array<{ lineId: number; quantity: number }> },
  ): SimOrder {
    const order = this.order(id);
    const items =
      input.lines?.map((l) => ({ item_id: l.lineId, qty: l.quantity })) ?? order.lines.map((l) => ({ item_id: l.id, qty: l.quantity }));
    this.parts.orders.fulfill(order, {
      status: 'fulfilled',
      isFulfilled: true,
      items,
      trackingNumber: input.trackingNumber,
      provider: input.provider,
      trackingUrl: input.trackingUrl,
    });
    return order;
  }

  /** The merchant refunds in wp-admin (money returned through the gateway). */
  refund(
    id: number | string,
    input: { amount: number; reason: string; lines?: Array<{ lineId: number; quantity: number; total: number }> },
  ): SimOrder {
    const order = this.order(id);
    this.parts.orders.refund(order, { amount: input.amount, reason: input.reason, lines: input.lines ?? [], apiRefund: false });
    return order;
  }

  /** A delivery of `topic` for this order as the store would send it to the webhook, not sent. */
  signedDelivery(
    webhookSecret: string,
    topic: 'order.created' | 'order.updated' | 'order.deleted',
    orderId: number | string,
  ): { headers: Record<string, string>; rawBody: Buffer } {
    const order = this.order(orderId);
    const webhook = {
      id: 1,
      name: 'test',
      status: 'active' as const,
      topic,
      deliveryUrl: 'http://127.0.0.1/',
      secret: webhookSecret,
      failureCount: 0,
      pendingDelivery: false,
      dateCreated: new Date(),
      dateModified: new Date(),
    };
    const payload = topic === 'order.deleted' ? { id: order.id } : orderShape(this.parts.store, order);
    const { headers, body } = signedRequest(this.parts.store, webhook, payload, Math.floor(this.parts.now() / 1000));
    return { headers, rawBody: Buffer.from(body) };
  }

  /** The store's session cleanup removed this cart: its token now reads an empty cart. */
  expireCart(cartToken: string): void {
    const customerId = this.parts.sessions.customerIdOf(cartToken);
    if (customerId) this.parts.sessions.expire(customerId);
  }

  setStock(purchasableId: number, quantity: number | null): void {
    const found = this.parts.store.purchasable(purchasableId);
    if (!found) throw new Error(`no product or variation ${purchasableId}`);
    found.item.manageStock = quantity !== null;
    found.item.stockQuantity = quantity;
  }

  deliveries() {
    return this.parts.webhooks.deliveries;
  }

  /** The next `times` deliveries of `topic` are lost (WooCommerce never retries a failed delivery). */
  dropWebhooks(topic: string, times = 1): void {
    this.parts.webhooks.drop(topic, times);
  }

  flushWebhooks(): Promise<void> {
    return this.parts.webhooks.flush();
  }

  /** The numeric id of a demo catalog id (catalog.yaml), product or variant. */
  idOf(demoId: string): number {
    const id = this.parts.index.variations.get(demoId) ?? this.parts.index.products.get(demoId);
    if (id === undefined) throw new Error(`no demo id ${demoId}`);
    return id;
  }
}

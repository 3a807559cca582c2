/** What reaches the gateway from the store on the store's own initiative: webhooks, polled order changes, catalog changes. */

/**
 * Catalog data that changed in the store (a backend product webhook, a sync job), so the
 * gateway drops its cached reads of it before their TTL: some products, or everything.
 */
export type CatalogChange = { productIds: string[] } | { all: true };

/** A webhook's headers as Node parses them: names lower-case, a header sent twice possibly an array. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * A verified backend webhook, reduced to what the gateway needs. `ping`: verified, nothing to do
 * (WooCommerce's first delivery, a REST store's test event); the gateway answers 2xx.
 */
export type BackendEvent =
  | {
      kind: 'order';
      /** The backend's delivery id, for deduplication. */
      eventId: string;
      orderId: string;
      /** The store's topic (`orders/create`, `order.updated`, ...), for logs. */
      topic: string;
      /**
       * The gateway's checkout reference when the event carries it (cart attribute, order meta);
       * absent: the gateway reads it from `getOrder(orderId).reference`.
       */
      reference?: string;
      /** The store-side object the order came from (`OrderSnapshot.storeReference`), when the event carries it. */
      storeReference?: string;
    }
  | { kind: 'ping'; eventId: string };

/** One order that changed on the store, for stores without webhooks (`ordersChangedSince`). */
export interface OrderChange {
  orderId: string;
  /** The gateway's checkout reference the order carries, when it has one. */
  reference?: string;
  /** The store-side object the order came from (`OrderSnapshot.storeReference`), when the store says. */
  storeReference?: string;
  /** RFC 3339: when the store last changed the order. */
  updatedAt: string;
}

/** The simulated store's data: catalog, coupons, shipping, tax, orders and webhooks, in memory. */
import type {
  PaymentGateway,
  ShippingZone,
  SimCoupon,
  SimOrder,
  SimProduct,
  SimVariation,
  SimWebhook,
  StockStatus,
  StoreSettings,
  TaxRate,
  Term,
  Purchasable,
} from './model.js';

export class WooStore {
  readonly categories: Term[] = [];
  readonly tags: Term[] = [];
  readonly shippingClasses: Term[] = [];
  readonly products = new Map<number, SimProduct>();
  readonly variations = new Map<number, SimVariation>();
  readonly coupons = new Map<number, SimCoupon>();
  readonly zones: ShippingZone[] = [];
  readonly taxRates: TaxRate[] = [];
  readonly orders = new Map<number, SimOrder>();
  readonly webhooks = new Map<number, SimWebhook>();
  readonly gateways: PaymentGateway[] = [
    { id: 'bacs', title: 'Direct bank transfer', charges: false },
    { id: 'simulated_card', title: 'Credit card (simulated gateway)', charges: true },
  ];
  private readonly counters = new Map<string, number>();

  constructor(
    readonly settings: StoreSettings,
    readonly homeUrl: () => string,
    readonly now: () => Date,
  ) {}

  /** WordPress ids are one sequence per table; separate counters keep seeded ids readable. */
  nextId(kind: 'term' | 'post' | 'image' | 'item' | 'meta' | 'webhook' | 'comment' | 'fulfillment', start: number): number {
    const next = (this.counters.get(kind) ?? start) + 1;
    this.counters.set(kind, next);
    return next;
  }

  purchasable(id: number): { item: Purchasable; product: SimProduct; variation?: SimVariation } | undefined {
    const variation = this.variations.get(id);
    if (variation) return { item: variation, product: this.products.get(variation.parentId)!, variation };
    const product = this.products.get(id);
    if (product && product.type === 'simple') return { item: product, product };
    return undefined;
  }

  stockStatus(item: Purchasable): StockStatus {
    if (!item.manageStock) return item.stockStatus;
    if ((item.stockQuantity ?? 0) > 0) return 'instock';
    return item.backorders === 'no' ? 'outofstock' : 'onbackorder';
  }

  /** A variable product is in stock when any variation is (WC_Product_Variable::sync_stock_status). */
  productStockStatus(product: SimProduct): StockStatus {
    if (product.type === 'simple') return this.stockStatus(product);
    const statuses = product.variationIds.map((id) => this.stockStatus(this.variations.get(id)!));
    if (statuses.includes('instock')) return 'instock';
    return statuses.includes('onbackorder') ? 'onbackorder' : 'outofstock';
  }

  /** Regular prices of the purchasable items of a product (one for simple, one per variation). */
  prices(product: SimProduct): number[] {
    return product.type === 'simple' ? [product.price] : product.variationIds.map((id) => this.variations.get(id)!.price);
  }

  /**
   * ReserveStock::get_reserved_stock (src/Checkout/Helpers/ReserveStock.php): the units of an item
   * held by placed orders still in checkout-draft or pending whose hold has not expired, other
   * than `excludeOrderId` (the cart's own draft order).
   */
  reservedStock(itemId: number, excludeOrderId = 0): number {
    const now = this.now().getTime();
    let held = 0;
    for (const order of this.orders.values()) {
      if (order.id === excludeOrderId || !order.stockHeldUntil || order.stockHeldUntil.getTime() <= now) continue;
      if (order.status !== 'checkout-draft' && order.status !== 'pending') continue;
      for (const line of order.lines) if ((line.variationId || line.productId) === itemId) held += line.quantity;
    }
    return held;
  }

  /** CartController::get_remaining_stock_for_product: stock less what other orders hold. */
  remainingStock(item: Purchasable, excludeOrderId = 0): number {
    return (item.stockQuantity ?? 0) - this.reservedStock(item.id, excludeOrderId);
  }

  couponByCode(code: string): SimCoupon | undefined {
    const wanted = code.trim().toLowerCase();
    return [...this.coupons.values()].find((c) => c.code === wanted);
  }
}

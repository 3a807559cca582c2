/**
 * The cart of a Store API session as WooCommerce prices and validates it
 * (src/StoreApi/Utilities/CartController.php): totals (pricing.ts), the variation a posted
 * attribute set names (parse_variation_data, get_variation_id_from_variation_data), coupon
 * validity (WC_Discounts::is_coupon_valid), and the stock problems validate_cart_items reports,
 * counting what other placed orders hold (get_remaining_stock_for_product).
 */
import type { CartSession } from './carts.js';
import type { SimCoupon } from './model.js';
import { couponFitsCart, price, pricingItem, type Priced, type PricingItem } from './pricing.js';
import { cartShape, type CartLine } from './shapes/store-cart.js';
import { decimal } from './shapes/format.js';
import type { WooStore } from './store.js';
import { WpError } from './wp-error.js';

const cartError = (status: number, code: string, message: string) => new WpError(status, `woocommerce_rest_${code}`, message);

/** ArrayUtils::natural_language_join( $names, true ): "A", "B" and "C". */
const joinNames = (names: string[]) => {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : (quoted[0] ?? '');
};

export interface StockProblem {
  code: string;
  message: string;
}

export class StoreCart {
  constructor(
    private readonly store: WooStore,
    private readonly packagesByClass: () => boolean,
  ) {}

  items(session: CartSession): PricingItem[] {
    return session.lines.map((l) => pricingItem(this.store, l.key, l.id, l.quantity)!);
  }

  coupons(session: CartSession): SimCoupon[] {
    return session.coupons.map((code) => this.store.couponByCode(code)!).filter(Boolean);
  }

  price(session: CartSession): Priced {
    return price(this.store, {
      items: this.items(session),
      coupons: this.coupons(session),
      shipping: session.shipping.country ? session.shipping : null,
      billing: session.billing.country ? session.billing : null,
      chosenRates: session.chosenRates,
      packagesByClass: this.packagesByClass(),
    });
  }

  /**
   * validate_cart_items / stock_exceptions_to_wp_errors: one error per kind, naming every product
   * of that kind; stock left is the stock less what other placed orders hold.
   */
  stockErrors(session: CartSession): StockProblem[] {
    const out: string[] = [];
    const partial: string[] = [];
    for (const line of session.lines) {
      const found = this.store.purchasable(line.id)!;
      const name = found.product.name;
      if (this.store.stockStatus(found.item) === 'outofstock') out.push(name);
      else if (found.item.manageStock && found.item.backorders === 'no') {
        const inCart = session.lines.filter((l) => l.id === line.id).reduce((n, l) => n + l.quantity, 0);
        if (this.store.remainingStock(found.item, session.draftOrderId) < inCart) partial.push(name);
      }
    }
    const problems: StockProblem[] = [];
    if (out.length) {
      problems.push({
        code: 'woocommerce_rest_product_out_of_stock',
        message:
          out.length > 1
            ? `${joinNames(out)} are out of stock and cannot be purchased. Please remove them from your cart.`
            : `${joinNames(out)} is out of stock and cannot be purchased. Please remove it from your cart.`,
      });
    }
    if (partial.length) {
      problems.push({
        code: 'woocommerce_rest_product_partially_out_of_stock',
        message:
          partial.length > 1
            ? `There are not enough ${joinNames(partial)} in stock. Please reduce the quantities in your cart.`
            : `There is not enough ${joinNames(partial)} in stock. Please reduce the quantity in your cart.`,
      });
    }
    return problems;
  }

  /** 409s carry the current cart so the client can resync (AbstractCartRoute::get_route_error_response). */
  conflict(session: CartSession, code: string, message: string): never {
    throw new WpError(409, code.startsWith('woocommerce_') ? code : `woocommerce_rest_${code}`, message, { cart: this.view(session) });
  }

  view(session: CartSession) {
    return cartShape(this.store, {
      lines: session.lines,
      priced: this.price(session),
      shipping: session.shipping,
      billing: session.billing,
      errors: this.stockErrors(session),
    });
  }

  /** WC_Discounts::is_coupon_valid for this cart; the sentence the store shows, or null. */
  couponProblem(session: CartSession, coupon: SimCoupon): string | null {
    const now = this.store.now();
    if (coupon.dateExpires && coupon.dateExpires.getTime() < now.getTime()) return 'This coupon has expired.';
    if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) return 'Coupon usage limit has been reached.';
    const items = this.items(session);
    const subtotal = items.reduce((n, i) => n + i.unitPrice * i.quantity, 0);
    if (coupon.minimumAmount && subtotal < coupon.minimumAmount) {
      return `The minimum spend for this coupon is $${decimal(coupon.minimumAmount, this.store.settings.decimals)}.`;
    }
    if (coupon.maximumAmount && subtotal > coupon.maximumAmount) {
      return `The maximum spend for this coupon is $${decimal(coupon.maximumAmount, this.store.settings.decimals)}.`;
    }
    if (!couponFitsCart(coupon, items)) return 'Sorry, this coupon is not applicable to selected products.';
    const email = session.billing.email.toLowerCase();
    if (coupon.emailRestrictions.length && email && !coupon.emailRestrictions.includes(email)) {
      return `Please enter a valid email to use coupon code "${coupon.code}".`;
    }
    return null;
  }

  /** parse_variation_data and get_variation_id_from_variation_data: the variation a posted attribute set names. */
  resolveVariation(id: number, variation: Array<{ attribute: string; value: string }>): { id: number; variation: CartLine['variation'] } {
    const product = this.store.products.get(id);
    const variationRecord = this.store.variations.get(id);
    const parent = variationRecord ? this.store.products.get(variationRecord.parentId)! : product;
    if (!parent || (!variationRecord && product?.type !== 'variable' && product?.type !== 'simple')) {
      throw cartError(400, 'cart_invalid_product', 'This product cannot be added to the cart.');
    }
    if (parent.type === 'simple') return { id, variation: [] };
    const given = new Map(variation.map((v) => [v.attribute.replace(/^attribute_/, ''), v.value]));
    const valueOf = (name: string) => given.get(name) ?? given.get(name.toLowerCase());
    let target = variationRecord;
    if (!target) {
      target = parent.variationIds
        .map((vid) => this.store.variations.get(vid)!)
        .find((v) => v.attributes.every((a) => a.option === '' || a.option === valueOf(a.name)));
      if (!target) throw cartError(400, 'variation_id_from_variation_data', 'No matching variation found.');
    }
    const chosen: CartLine['variation'] = [];
    const missing: string[] = [];
    for (const attribute of parent.attributes.filter((a) => a.variation)) {
      const expected = target.attributes.find((a) => a.name === attribute.name)?.option ?? '';
      const value = valueOf(attribute.name);
      if (value !== undefined && value !== expected && !(expected === '' && attribute.options.includes(value))) {
        throw cartError(
          400,
          'invalid_variation_data',
          `Invalid value posted for ${attribute.name}. Allowed values: ${attribute.options.join(', ')}`,
        );
      }
      if (value === undefined && expected === '') missing.push(attribute.name);
      chosen.push({ attribute: attribute.name, value: value ?? expected });
    }
    if (missing.length) {
      throw cartError(
        400,
        'missing_variation_data',
        `Missing variation data for variable product. ${missing.join(' and ')} ` +
          (missing.length > 1 ? 'are required fields' : 'is a required field'),
      );
    }
    return { id: target.id, variation: chosen };
  }
}

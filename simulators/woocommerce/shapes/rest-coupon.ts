/**
 * `wc/v3` coupon resource, field by field as in woocommerce/woocommerce-rest-api-docs
 * source/includes/wp-api-v3/_coupons.md ("Coupon properties") and
 * plugins/woocommerce/includes/rest-api/Controllers/Version3/class-wc-rest-coupons-controller.php.
 */
import type { SimCoupon } from '../model.js';
import type { WooStore } from '../store.js';
import { decimal, links, localDate, gmtDate } from './format.js';

export function couponShape(store: WooStore, coupon: SimCoupon) {
  const dp = store.settings.decimals;
  const money = (n: number) => decimal(n, dp);
  return {
    id: coupon.id,
    code: coupon.code,
    amount: coupon.discountType === 'percent' ? Number(coupon.amount).toFixed(dp) : money(Number(coupon.amount)),
    status: 'publish',
    date_created: localDate(store, coupon.dateCreated),
    date_created_gmt: gmtDate(coupon.dateCreated),
    date_modified: localDate(store, coupon.dateCreated),
    date_modified_gmt: gmtDate(coupon.dateCreated),
    discount_type: coupon.discountType,
    description: coupon.description,
    date_expires: localDate(store, coupon.dateExpires),
    date_expires_gmt: gmtDate(coupon.dateExpires),
    usage_count: coupon.usageCount,
    individual_use: coupon.individualUse,
    product_ids: coupon.productIds,
    excluded_product_ids: coupon.excludedProductIds,
    usage_limit: coupon.usageLimit,
    usage_limit_per_user: coupon.usageLimitPerUser,
    limit_usage_to_x_items: null,
    free_shipping: coupon.freeShipping,
    product_categories: coupon.productCategories,
    excluded_product_categories: coupon.excludedProductCategories,
    exclude_sale_items: coupon.excludeSaleItems,
    minimum_amount: money(coupon.minimumAmount),
    maximum_amount: money(coupon.maximumAmount),
    email_restrictions: coupon.emailRestrictions,
    used_by: coupon.usedBy,
    meta_data: [],
    _links: links(store.homeUrl(), `wc/v3/coupons/${coupon.id}`, 'wc/v3/coupons'),
  };
}

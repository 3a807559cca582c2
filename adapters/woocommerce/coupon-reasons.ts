/**
 * Why the store refused a code. The Store API answers a refused coupon with a 400
 * `woocommerce_rest_cart_coupon_error` and a sentence only, so the reason is read from the
 * coupon's own rules (`GET wc/v3/coupons?code=`, kept for the cache time): unknown code ->
 * invalid; expiry date passed -> expired; usage limit used up -> invalid; email restrictions ->
 * user_ineligible (or user_not_logged_in when no buyer email is known); individual use ->
 * combination_disallowed; minimum / maximum spend, product, category and sale-item rules ->
 * not_applicable. When no rule explains the refusal, no reason is given (the gateway then says
 * discount_code_invalid) rather than an invented one.
 */
import { LRUCache } from 'lru-cache';
import type { DiscountRejection } from '../contract.js';
import { unexpected, type WooHttp, type WpErrorBody } from './http.js';
import { plainText } from './catalog-map.js';
import { expectShape, WcCoupons, type WcCoupon } from './wc-shapes.js';

export interface Rejection {
  reason?: DiscountRejection;
  detail: string;
}

export class CouponReasons {
  private readonly coupons: LRUCache<string, { coupon: WcCoupon | null }>;

  constructor(
    private readonly http: WooHttp,
    cacheMs: number,
    private readonly now: () => number,
  ) {
    this.coupons = new LRUCache({ max: 2000, ttl: Math.max(1, cacheMs) });
  }

  private async find(code: string, signal?: AbortSignal): Promise<WcCoupon | null> {
    const key = code.trim().toLowerCase();
    const cached = this.coupons.get(key);
    if (cached) return cached.coupon;
    const what = 'GET wc/v3/coupons?code=';
    const response = await this.http.rest('GET', 'coupons', { params: { code: key } }, signal);
    if (response.status !== 200) throw unexpected(what, response.body);
    const coupon = expectShape(WcCoupons, response.body, what).find((c) => c.code.toLowerCase() === key) ?? null;
    this.coupons.set(key, { coupon });
    return coupon;
  }

  async explain(code: string, refusal: WpErrorBody, buyerEmail: string | undefined, signal?: AbortSignal): Promise<Rejection> {
    const detail = plainText(refusal.message);
    if (/cannot be used in conjunction with other coupons/i.test(refusal.message)) return { reason: 'combination_disallowed', detail };
    const coupon = await this.find(code, signal);
    if (!coupon) return { reason: 'invalid', detail };
    if (coupon.date_expires_gmt && Date.parse(`${coupon.date_expires_gmt}Z`) < this.now()) return { reason: 'expired', detail };
    if (coupon.usage_limit !== null && coupon.usage_count >= coupon.usage_limit) return { reason: 'invalid', detail };
    if (coupon.email_restrictions.length > 0) {
      if (!buyerEmail) return { reason: 'user_not_logged_in', detail };
      const email = buyerEmail.toLowerCase();
      const allowed = coupon.email_restrictions.some((pattern) =>
        new RegExp(`^${pattern.toLowerCase().split('*').map(escapeRegExp).join('.*')}$`).test(email),
      );
      if (!allowed) return { reason: 'user_ineligible', detail };
    }
    const restricted =
      Number(coupon.minimum_amount) > 0 ||
      Number(coupon.maximum_amount) > 0 ||
      coupon.product_ids.length > 0 ||
      coupon.excluded_product_ids.length > 0 ||
      coupon.product_categories.length > 0 ||
      coupon.excluded_product_categories.length > 0 ||
      coupon.exclude_sale_items;
    if (restricted) return { reason: 'not_applicable', detail };
    return { detail };
  }
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

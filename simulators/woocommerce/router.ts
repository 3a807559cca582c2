/** A WordPress-style REST route table: method + route pattern, each with the permission it needs. */
import type { ApiKey } from './auth.js';
import type { CartSession } from './carts.js';

export interface RouteContext {
  method: string;
  route: string;
  params: string[];
  query: Record<string, string>;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  key?: ApiKey;
  /** A batch's sub-requests: the store session of the outer request (Store API only). */
  session?: CartSession;
}

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/** REST routes need an API key with read or write permission; Store API routes are public. */
export type Permission = 'read' | 'write' | 'public';

interface Route {
  method: string;
  pattern: RegExp;
  permission: Permission;
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, permission: Permission, handler: Handler): void {
    // Path parameters as WooCommerce registers them: ids `[\d]+`, cart item keys `[\w-]{32}`
    // (CartItemsByKey), coupon codes `[\w-]+` (CartCouponsByCode).
    const regex = new RegExp(
      `^${pattern
        .replace(/\{id\}/g, '(\\d+)')
        .replace(/\{key\}/g, '([\\w-]{32})')
        .replace(/\{code\}/g, '([\\w-]+)')}/?$`,
    );
    this.routes.push({ method, pattern: regex, permission, handler });
  }

  /** The route for this request; `exists` tells a wrong method from an unknown route. */
  match(method: string, route: string): { route?: Route; params: string[]; exists: boolean } {
    let exists = false;
    for (const candidate of this.routes) {
      const found = candidate.pattern.exec(route);
      if (!found) continue;
      exists = true;
      if (candidate.method === method) return { route: candidate, params: found.slice(1), exists };
    }
    return { params: [], exists };
  }
}

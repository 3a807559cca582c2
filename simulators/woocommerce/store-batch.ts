/**
 * `POST /wc/store/v1/batch`: src/StoreApi/Routes/V1/Batch.php over WP_REST_Server::serve_batch_request_v1
 * (wp-includes/rest-api/class-wp-rest-server.php):
 * - `requests` is required, at most 25, each a `path` (containing "wc/store", else 400
 *   `woocommerce_rest_invalid_path` for the whole batch), a `method` among POST, PUT, PATCH,
 *   DELETE (default POST; GET is refused by the argument schema), a `body` and `headers`;
 * - every sub-request is matched and validated first; a route that does not allow batching
 *   (GET /cart has no `allow_batch`) answers 400 `rest_batch_not_allowed`; with
 *   `validation: require-all-validate` one invalid sub-request fails the batch unrun (207,
 *   `failed: validation`);
 * - then each runs in order with its own headers only (a sub-request's Nonce and Cart-Token are
 *   its own), in the outer request's cart session (store-session.ts), its answer trimmed to its
 *   own `_fields` (response-fields.ts); the batch answers 207 `{responses: [{body, status, headers}]}`
 *   with Nonce, X-WC-Store-API-Nonce, Nonce-Timestamp and User-ID, and no Cart-Token, on the
 *   batch itself (Batch::get_response).
 */
import type { CartSessions } from './carts.js';
import { filterResponseFields } from './response-fields.js';
import type { RouteContext, RouteResult, Router } from './router.js';
import { header, type StoreSessions } from './store-session.js';
import { invalidParam, missingParam, noRoute, WpError } from './wp-error.js';

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

interface SubRequest {
  path: string;
  method?: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

function validate(requests: unknown): SubRequest[] {
  if (!Array.isArray(requests)) throw missingParam('requests');
  if (requests.length > 25) throw invalidParam('requests', 'requests must contain at most 25 items.');
  requests.forEach((r: { path?: unknown; method?: unknown }, i) => {
    if (typeof r?.path !== 'string') throw invalidParam('requests', `requests[${i}][path] is a required property of requests[${i}].`);
    if (r.method !== undefined && (typeof r.method !== 'string' || !METHODS.includes(r.method)))
      throw invalidParam('requests', `requests[${i}][method] is not one of POST, PUT, PATCH, and DELETE.`);
  });
  for (const r of requests as SubRequest[]) {
    if (!r.path.includes('wc/store')) throw new WpError(400, 'woocommerce_rest_invalid_path', 'Invalid path provided.');
  }
  return requests as SubRequest[];
}

export function registerBatch(router: Router, sessions: StoreSessions, carts: CartSessions): void {
  router.add('POST', '/wc/store/v1/batch', 'public', async (ctx: RouteContext): Promise<RouteResult> => {
    const requests = validate(ctx.body.requests);
    const { session } = await carts.load(header(ctx, 'cart-token'));
    const matched = requests.map((r) => {
      const [route = '', search = ''] = r.path.split('?');
      const found = router.match(r.method ?? 'POST', route.replace(/\/+$/, ''));
      const error = !found.route ? noRoute() : route === '/wc/store/v1/cart' ? batchNotAllowed() : undefined;
      return { r, route, query: Object.fromEntries(new URLSearchParams(search)), found, error };
    });
    if (ctx.body.validation === 'require-all-validate' && matched.some((m) => m.error)) {
      return {
        status: 207,
        body: {
          failed: 'validation',
          responses: matched.map((m) => (m.error ? { body: m.error.body(), status: m.error.status, headers: {} } : null)),
        },
        headers: sessions.batchHeaders(),
      };
    }
    const responses = [];
    for (const { r, route, query, found, error } of matched) {
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      try {
        if (error) throw error;
        const result = await found.route!.handler({
          method: r.method ?? 'POST',
          route,
          params: found.params,
          query,
          body: { ...query, ...(r.body ?? {}) },
          headers,
          session,
        });
        const status = result.status ?? 200;
        responses.push({ body: filterResponseFields(result.body, status, query._fields), status, headers: result.headers ?? {} });
      } catch (caught) {
        if (!(caught instanceof WpError)) throw caught;
        responses.push({ body: caught.body(), status: caught.status, headers: caught.headers });
      }
    }
    return { status: 207, body: { responses }, headers: sessions.batchHeaders() };
  });
}

const batchNotAllowed = () => new WpError(400, 'rest_batch_not_allowed', 'The requested route does not support batch requests.');

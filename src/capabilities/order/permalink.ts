/**
 * The gateway's own order page, used as `permalink_url` when the store has none: an
 * unguessable URL, `{base_url}/order-status/{orderId}?t=<token>`, whose token is an HMAC of the
 * tenant and order id under a key derived from GATEWAY_SECRET. Whoever holds the link (the
 * buyer, through the platform) can read the page; nobody can derive it from an order id.
 */
import type { OperationContext } from '../context.js';
import type { GatewaySecret } from '../../config/gateway-secret.js';
import { hmacSha256 } from '../../../adapters/kit/hmac-sha256.js';
import { signatureMatches } from '../../../adapters/kit/hmac.js';

export const ORDER_PAGE_PATH = '/order-status';

/** 128 bits of HMAC-SHA256, base64url. */
function token(secret: GatewaySecret, tenantId: string, orderId: string): string {
  return hmacSha256(secret.key('order-permalink'), `${tenantId}\n${orderId}`).subarray(0, 16).toString('base64url');
}

export function permalinkFor(ctx: Pick<OperationContext, 'tenant' | 'secret'>, orderId: string): string {
  return `${ctx.tenant.baseUrl}${ORDER_PAGE_PATH}/${encodeURIComponent(orderId)}?t=${token(ctx.secret, ctx.tenant.id, orderId)}`;
}

/** True when `presented` is the token of this tenant's order (compared in constant time). */
export function permalinkTokenValid(secret: GatewaySecret, tenantId: string, orderId: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(token(secret, tenantId, orderId));
  const given = Buffer.from(presented);
  return signatureMatches(given, expected);
}

/**
 * The reference store's API authentication: every request is signed with the client's secret.
 *   X-Shop-Key:       the key id
 *   X-Shop-Timestamp: unix seconds (within 5 minutes of the store's clock)
 *   X-Shop-Signature: hex HMAC-SHA256 of "<timestamp>\n<METHOD>\n<path and query>\n<hex SHA-256 of the body>"
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface ApiKey {
  id: string;
  secret: string;
}

const TOLERANCE_SECONDS = 300;

export function stringToSign(timestamp: string, method: string, target: string, body: Buffer | string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${target}\n${createHash('sha256').update(body).digest('hex')}`;
}

/** Why the request is refused, or null when it is signed by `key`. */
export function checkSignature(
  key: ApiKey,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  target: string,
  body: Buffer,
  nowMs: number,
): string | null {
  const one = (name: string) => (typeof headers[name] === 'string' ? headers[name] : undefined);
  const keyId = one('x-shop-key');
  const timestamp = one('x-shop-timestamp');
  const signature = one('x-shop-signature');
  if (!keyId || !timestamp || !signature) return 'X-Shop-Key, X-Shop-Timestamp and X-Shop-Signature are required';
  if (keyId !== key.id) return 'unknown key';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - nowMs / 1000) > TOLERANCE_SECONDS)
    return 'timestamp is missing or too far from now';
  const expected = createHmac('sha256', key.secret)
    .update(stringToSign(timestamp, method, target, body))
    .digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'signature does not match';
}

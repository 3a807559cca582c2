/**
 * Unguessable ids (carts, checkouts, lines, events) from a pool of CSPRNG bytes: one
 * randomFillSync per 4 KiB instead of one per id, which a checkout with several lines calls often.
 * Each pooled byte is handed out once.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `prefix` followed by `bytes` random bytes in base64url. */
export function randomId(prefix: string, bytes = 16): string {
  if (offset + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + bytes);
  offset += bytes;
  return prefix + id;
}

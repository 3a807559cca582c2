/**
 * A SHA-256 fingerprint of a sequence of parts (NUL-separated, so ["ab", "c"] and ["a", "bc"]
 * differ): what idempotency keys, priced pages and announced order snapshots are compared by.
 */
import { createHash } from 'node:crypto';

export function fingerprint(parts: ReadonlyArray<string | Buffer>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64url');
}

/**
 * API keys in X-API-Key (spec part 1 §5), each issued to one platform. Only SHA-256 hashes are
 * configured; the presented key is hashed and compared with every stored hash in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export interface ApiKeyEntry {
  sha256: string;
  profile: string;
}

export class ApiKeys {
  private readonly entries: Array<{ hash: Buffer; profile: string }>;

  constructor(entries: readonly ApiKeyEntry[]) {
    this.entries = entries.map((e) => ({ hash: Buffer.from(e.sha256, 'hex'), profile: e.profile }));
  }

  /** The profile URL the key was issued to, or undefined for an unknown key. */
  identify(presented: string): string | undefined {
    const hash = createHash('sha256').update(presented, 'utf8').digest();
    let profile: string | undefined;
    // No early exit: the time taken does not depend on which entry matched.
    for (const entry of this.entries) if (timingSafeEqual(hash, entry.hash)) profile ??= entry.profile;
    return profile;
  }
}

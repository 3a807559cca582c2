/**
 * Brute-force limits of the login page: failed logins counted per account (the email's digest) and
 * per client address in the state store, so every replica sees them; over either limit the page
 * refuses to try the password until the window has passed.
 */
import { createHash } from 'node:crypto';
import type { StateStore } from '../state/store.js';

export interface AttemptLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: AttemptLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export class LoginAttempts {
  constructor(
    private readonly store: StateStore,
    private readonly tenantId: string,
    private readonly limits: AttemptLimits = DEFAULT_LIMITS,
  ) {}

  private keys(email: string, address: string): [string, string] {
    const prefix = `login-failures:${this.tenantId}`;
    return [`${prefix}:account:${digest(email.trim().toLowerCase())}`, `${prefix}:address:${digest(address)}`];
  }

  /** True when this account or this address has failed too often lately. */
  async blocked(email: string, address: string): Promise<boolean> {
    const [account, from] = this.keys(email, address);
    const [a, b] = await Promise.all([this.store.get<number>(account), this.store.get<number>(from)]);
    return (a?.value ?? 0) >= this.limits.perAccount || (b?.value ?? 0) >= this.limits.perAddress;
  }

  async failed(email: string, address: string): Promise<void> {
    for (const key of this.keys(email, address)) {
      // Each failure renews the window: a sliding one, so a patient attacker gains nothing by pacing.
      for (let i = 0; i < 10; i++) {
        const current = await this.store.get<number>(key);
        if ((await this.store.compareAndSet(key, current?.version ?? 0, (current?.value ?? 0) + 1, this.limits.windowMs)) !== null) break;
      }
    }
  }

  /** A successful login clears its account's count (not the address's). */
  async succeeded(email: string, address: string): Promise<void> {
    await this.store.delete(this.keys(email, address)[0]);
  }
}

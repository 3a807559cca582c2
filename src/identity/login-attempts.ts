/**
 * Brute-force limits of the login page, per account (the email's digest) and per client address,
 * counted in the state store so every replica sees them. An attempt is reserved before its
 * password is checked: a compare-and-set increment that refuses at the limit, so guesses sent at
 * once cannot all pass a check that none of them has been counted in yet. A wrong password keeps
 * its reservation (it is the failure counted); a right one clears its account's count and gives
 * the address its reservation back; an attempt the store could not judge gives both back.
 */
import { createHash } from 'node:crypto';
import type { StateStore } from '../state/store.js';

export interface AttemptLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

const DEFAULT_LIMITS: AttemptLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

/** Compare-and-set rounds before a reservation gives up: contention on one counter is itself an attack, refused. */
const MAX_ROUNDS = 50;

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

  /** Reserves one attempt for this account and this address; false (nothing reserved) when either is at its limit. */
  async reserve(email: string, address: string): Promise<boolean> {
    const [account, from] = this.keys(email, address);
    if (!(await this.add(account, 1, this.limits.perAccount))) return false;
    if (await this.add(from, 1, this.limits.perAddress)) return true;
    await this.add(account, -1);
    return false;
  }

  /** The password was right: its account's count is cleared, and the address gets its reservation back. */
  async succeeded(email: string, address: string): Promise<void> {
    const [account, from] = this.keys(email, address);
    await this.store.delete(account);
    await this.add(from, -1);
  }

  /** The store could not judge the password (it failed): the reservation is given back. */
  async abandoned(email: string, address: string): Promise<void> {
    for (const key of this.keys(email, address)) await this.add(key, -1);
  }

  /**
   * Adds `delta` to a count unless that takes it past `limit`; false when refused. Each write
   * renews the window: a sliding one, so a patient attacker gains nothing by pacing.
   */
  private async add(key: string, delta: 1 | -1, limit = Infinity): Promise<boolean> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = await this.store.get<number>(key);
      const count = current?.value ?? 0;
      if (count + delta > limit) return false;
      if (delta < 0 && count === 0) return true;
      if ((await this.store.compareAndSet(key, current?.version ?? 0, count + delta, this.limits.windowMs)) !== null) return true;
    }
    return false;
  }
}

/**
 * Who may move a tenant's orders through the simulation API: whoever presents the tenant's
 * simulation secret as `Authorization: Bearer <secret>`. Only its SHA-256 is kept, and the
 * comparison takes the same time whatever is presented.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OrderSimulator } from '../../adapters/simulator.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

const BEARER = /^Bearer +(\S+) *$/i;

export class SimulationAccess {
  private readonly digest: Buffer;

  constructor(
    readonly simulator: OrderSimulator,
    secret: string,
  ) {
    this.digest = sha256(secret);
  }

  admits(authorization: string | string[] | undefined): boolean {
    const presented = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
    return presented !== undefined && timingSafeEqual(sha256(presented), this.digest);
  }
}

/**
 * The gateway's own secret (GATEWAY_SECRET), the same on every replica: keys for the opaque
 * tokens the gateway signs (catalog cursors, ...) are derived from it, one per purpose, so a
 * token signed for one purpose never verifies for another. Never logged or serialized.
 */
import { createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';

export class GatewaySecret {
  private readonly keys = new Map<string, KeyObject>();

  private constructor(
    private readonly material: Buffer,
    /** True when generated at start-up: tokens then only verify on this process. */
    readonly ephemeral: boolean,
  ) {}

  /** From the configured secret, or a random one for this process when none is configured. */
  static from(secret: string | undefined): GatewaySecret {
    return secret === undefined ? new GatewaySecret(randomBytes(32), true) : new GatewaySecret(Buffer.from(secret, 'utf8'), false);
  }

  /**
   * A 256-bit key for one purpose (HKDF-SHA256 with the purpose as info), as a KeyObject: given a
   * Buffer, Node 24's createHmac first throws and catches an exception to learn it is no KeyObject,
   * which costs more than the HMAC of a token (bench/results.md, issue 32).
   */
  key(purpose: string): KeyObject {
    let key = this.keys.get(purpose);
    if (!key) {
      key = createSecretKey(Buffer.from(hkdfSync('sha256', this.material, Buffer.alloc(0), `proto-gateway:${purpose}`, 32)));
      this.keys.set(purpose, key);
    }
    return key;
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return 'GatewaySecret [redacted]';
  }
}

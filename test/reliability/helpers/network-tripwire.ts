/**
 * A tripwire under every outbound TCP connection of the test process: only loopback may be
 * reached. A connection to any other address (an IP literal, or a name whose lookup answered
 * one) is recorded and failed before a packet leaves, and a name outside `names` is never even
 * looked up. So a broken SSRF guard fails the suite instead of sending traffic anywhere.
 */
import { lookup as systemLookup } from 'node:dns';
import { isIP, Socket } from 'node:net';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;
type Lookup = (hostname: string, options: Record<string, unknown>, callback: LookupCallback) => void;

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);

export interface Tripwire {
  /** Every refused destination, in order. */
  readonly tripped: string[];
  uninstall(): void;
}

function refused(what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`network tripwire: ${what}`), { code: 'ENOTFOUND' });
}

/** `names`: host names tests resolve themselves (a mocked resolver); `localhost` is always allowed. */
export function installNetworkTripwire(names: readonly string[] = []): Tripwire {
  const tripped: string[] = [];
  const allowedNames = new Set(['localhost', ...names]);
  // Kept to be called with the socket as `this` (apply below) and put back on uninstall.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Socket.prototype.connect;

  function guardLookup(inner: Lookup): Lookup {
    return (hostname, options, callback) => {
      if (!allowedNames.has(hostname)) {
        tripped.push(`lookup ${hostname}`);
        return callback(refused(`${hostname} may not be resolved here`), '');
      }
      inner(hostname, options, (error, address, family) => {
        if (error) return callback(error, address, family);
        const addresses = typeof address === 'string' ? [address] : address.map((a) => a.address);
        const outside = addresses.find((a) => !isLoopback(a));
        if (outside !== undefined) {
          tripped.push(`${hostname} -> ${outside}`);
          return callback(refused(`${hostname} resolved to ${outside}, which is not loopback`), '');
        }
        callback(null, address, family);
      });
    };
  }

  Socket.prototype.connect = function connect(this: Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : first) as Record<string, unknown> | number | string;
    if (options !== null && typeof options === 'object' && options.path === undefined) {
      const host = typeof options.host === 'string' ? options.host : 'localhost';
      if (isIP(host) && !isLoopback(host)) {
        tripped.push(host);
        process.nextTick(() => this.destroy(refused(`connection to ${host} refused`)));
        return this;
      }
      if (!isIP(host)) options.lookup = guardLookup((options.lookup as Lookup | undefined) ?? systemLookup);
    }
    return (original as (...a: unknown[]) => Socket).apply(this, args);
  };

  return {
    tripped,
    uninstall() {
      Socket.prototype.connect = original;
    },
  };
}

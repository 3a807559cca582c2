/**
 * The HTTPS listener: TLS 1.3 minimum (spec part 1 §8). With a client CA, the listener asks
 * for client certificates (mutual TLS): `require` refuses the handshake without a valid one,
 * `request` lets it through unverified. Either way the request's socket (`req.raw.socket`, a
 * TLSSocket) carries `authorized` and `getPeerCertificate()` for authentication to judge.
 */
import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';
import type { TlsSettings } from '../config/env.js';
import { ConfigError } from '../../adapters/kit/config-error.js';

function read(file: string, setting: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ConfigError(`${setting}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/** Read at start-up and again on SIGHUP (certificate renewal without a restart). */
export function httpsOptions(tls: TlsSettings): ServerOptions {
  return {
    cert: read(tls.certFile, 'TLS_CERT_FILE'),
    key: read(tls.keyFile, 'TLS_KEY_FILE'),
    minVersion: 'TLSv1.3',
    ...(tls.caFile && {
      ca: read(tls.caFile, 'TLS_CA_FILE'),
      requestCert: true,
      rejectUnauthorized: tls.clientCert === 'require',
    }),
  };
}

/**
 * Mutual TLS (spec part 1 §5): when the listener verified a client certificate, its SHA-256
 * fingerprint maps to the platform it was issued to. The HTTPS listener only has to request and
 * verify client certificates; this module reads the result from the socket.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

const normalizeFingerprint = (fingerprint: string): string => fingerprint.replace(/:/g, '').toLowerCase();

/** Fingerprint of the peer certificate the TLS layer verified, or undefined (plain HTTP, none sent, not trusted). */
export function verifiedPeerCertificate(socket: Socket): string | undefined {
  const tls = socket as Partial<TLSSocket>;
  if (!tls.encrypted || !tls.authorized || typeof tls.getPeerCertificate !== 'function') return undefined;
  const fingerprint = tls.getPeerCertificate().fingerprint256;
  return fingerprint ? normalizeFingerprint(fingerprint) : undefined;
}

export class ClientCertificates {
  private readonly profiles: ReadonlyMap<string, string>;

  constructor(clients: ReadonlyArray<{ sha256: string; profile: string }>) {
    this.profiles = new Map(clients.map((c) => [normalizeFingerprint(c.sha256), c.profile]));
  }

  identify(fingerprint: string): string | undefined {
    return this.profiles.get(fingerprint);
  }
}

/**
 * Which A2A version a request speaks (A2A 1.0 §3.6): the `A2A-Version` header, or the query
 * parameter of that name; none means 0.3 (§3.6.2), which is what every 0.3 client sends. Versions
 * compare by Major.Minor only (§3.6: a patch number is never negotiated).
 */
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import type { FastifyRequest } from 'fastify';

/** The two versions the agent card declares: A2A 1.0, and 0.3 for the clients that predate it. */
export const A2A_V1 = '1.0';
export const A2A_V03 = A2A_LEGACY_PROTOCOL_VERSION;

/** The header that names the extensions a request activates, and the answer echoes: renamed in 1.0 (A2A 1.0 §14.2.2). */
export const extensionsHeader = (version: string): string => (version === A2A_V03 ? 'x-a2a-extensions' : 'a2a-extensions');

const MAJOR_MINOR = /^\s*(\d{1,4})\.(\d{1,4})(?:\.\d{1,4})?\s*$/;

/** The version the request asks for, as Major.Minor; anything unreadable is kept as sent, to be refused as unsupported. */
export function requestedVersion(req: FastifyRequest): string {
  const header = req.headers['a2a-version'];
  const query = (req.query as Record<string, unknown> | undefined)?.['A2A-Version'];
  const asked = typeof header === 'string' && header !== '' ? header : typeof query === 'string' && query !== '' ? query : undefined;
  if (asked === undefined) return A2A_V03;
  const parts = MAJOR_MINOR.exec(asked);
  return parts ? `${Number(parts[1])}.${Number(parts[2])}` : asked.slice(0, 20);
}

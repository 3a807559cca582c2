/**
 * The `PROTO-Agent` request header: an RFC 8941 dictionary carrying `profile="<url>"`
 * (spec part 1 §5). Parsed with a structured-fields library, never by hand. A header that is
 * missing or unreadable is a missing profile URL: the discovery error `invalid_profile_url`.
 */
import { parseDictionary, serializeDictionary } from 'structured-headers';
import { ProtocolError } from './errors.js';

export interface AgentHeader {
  profile: string;
}

/** Platforms send the same header on every request: its parse is kept, for a bounded number of spellings. */
const parsed = new Map<string, AgentHeader>();
const PARSED_MAX = 1000;

export function parseAgentHeader(value: string | string[] | undefined): AgentHeader {
  const known = typeof value === 'string' ? parsed.get(value) : undefined;
  if (known) return known;
  const header = parse(value);
  if (typeof value === 'string') {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(value, header);
  }
  return header;
}

function parse(value: string | string[] | undefined): AgentHeader {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    const example = 'PROTO-Agent: profile="https://platform.example/.well-known/proto"';
    throw new ProtocolError('invalid_profile_url', `PROTO-Agent is required: ${example}`);
  }
  const raw = Array.isArray(value) ? value.join(', ') : value;
  let profile: unknown;
  try {
    profile = parseDictionary(raw).get('profile')?.[0];
  } catch {
    throw new ProtocolError('invalid_profile_url', 'PROTO-Agent is not a valid RFC 8941 dictionary; expected profile="<profile URL>"');
  }
  if (typeof profile !== 'string' || profile === '') {
    throw new ProtocolError('invalid_profile_url', 'PROTO-Agent must carry a string member profile="<profile URL>"');
  }
  return Object.freeze({ profile });
}

/** The header the gateway sends as the business (order webhooks): profile="<url>". */
export const agentHeader = (profileUrl: string): string => serializeDictionary(new Map([['profile', [profileUrl, new Map()]]]));

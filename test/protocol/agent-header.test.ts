import { describe, expect, it } from 'vitest';
import { parseAgentHeader } from '../../src/protocol/agent-header.js';
import { ProtocolError } from '../../src/protocol/errors.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ProtocolError ? `${error.status} ${error.code}` : 'other';
  }
  return undefined;
}

describe('PROTO-Agent header', () => {
  it('reads the profile member of an RFC 8941 dictionary', () => {
    expect(parseAgentHeader('profile="https://agent.example/.well-known/proto"')).toEqual({ profile: 'https://agent.example/.well-known/proto' });
    expect(parseAgentHeader('v=1, profile="https://a.example/p";x=2').profile).toBe('https://a.example/p');
  });

  it('rejects a missing header with missing_agent_header', () => {
    expect(codeOf(() => parseAgentHeader(undefined))).toBe('400 missing_agent_header');
    expect(codeOf(() => parseAgentHeader(''))).toBe('400 missing_agent_header');
  });

  it('rejects malformed dictionaries and non-string profiles with invalid_agent_header', () => {
    for (const bad of ['profile=https://a.example', 'profile="unterminated', '"just a string"', 'profile=1', 'other="x"', 'profile=?1', 'profile=""']) {
      expect(codeOf(() => parseAgentHeader(bad)), bad).toBe('400 invalid_agent_header');
    }
  });
});

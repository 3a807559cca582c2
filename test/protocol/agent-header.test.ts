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
    expect(parseAgentHeader('profile="https://agent.example/.well-known/proto"')).toEqual({
      profile: 'https://agent.example/.well-known/proto',
    });
    expect(parseAgentHeader('v=1, profile="https://a.example/p";x=2').profile).toBe('https://a.example/p');
  });

  it('a missing header is a missing profile URL: 400 invalid_profile_url, -32001 on MCP', () => {
    expect(codeOf(() => parseAgentHeader(undefined))).toBe('400 invalid_profile_url');
    expect(codeOf(() => parseAgentHeader(''))).toBe('400 invalid_profile_url');
    try {
      parseAgentHeader(undefined);
    } catch (error) {
      expect((error as ProtocolError).jsonRpcCode).toBe(-32001);
    }
  });

  it('a malformed dictionary or a non-string profile is an unparseable profile URL: 400 invalid_profile_url', () => {
    for (const bad of [
      'profile=https://a.example',
      'profile="unterminated',
      '"just a string"',
      'profile=1',
      'other="x"',
      'profile=?1',
      'profile=""',
    ]) {
      expect(
        codeOf(() => parseAgentHeader(bad)),
        bad,
      ).toBe('400 invalid_profile_url');
    }
  });

  it('reads a header it has seen before the same way, and refuses a bad one every time', () => {
    const header = 'profile="https://again.example/.well-known/proto"';
    expect(parseAgentHeader(header)).toEqual(parseAgentHeader(header));
    expect(parseAgentHeader(header).profile).toBe('https://again.example/.well-known/proto');
    for (let i = 0; i < 2; i++) expect(codeOf(() => parseAgentHeader('profile=1'))).toBe('400 invalid_profile_url');
  });
});

/**
 * The error catalogue is the one list of codes: every transport error takes its HTTP status and
 * JSON-RPC code from its row, a code outside it does not typecheck, and docs/errors.md is what
 * `npm run docs:errors` renders from it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_DOCS_PATH, renderErrorDocs } from '../../scripts/error-docs.js';
import { catalogueRows, ERROR_CATALOGUE, JSONRPC } from '../../src/protocol/error-catalogue.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { errorMessage, warningMessage } from '../../src/protocol/messages.js';

describe('error catalogue', () => {
  it('docs/errors.md is the catalogue as generated (run `npm run docs:errors` after changing it)', () => {
    expect(readFileSync(ERROR_DOCS_PATH, 'utf8')).toBe(renderErrorDocs());
  });

  it('a protocol error answers with the status and JSON-RPC code of its row', () => {
    const error = new ProtocolError('profile_unreachable', 'profile at https://agent.example could not be fetched', {
      retryAfterSeconds: 5,
    });
    expect([error.status, error.jsonRpcCode, error.code]).toEqual([424, JSONRPC.discovery, 'profile_unreachable']);
    expect(error.toBody()).toEqual({ code: 'profile_unreachable', content: 'profile at https://agent.example could not be fetched' });
    expect(error.extra.retryAfterSeconds).toBe(5);
  });

  it('an identity failure answers with a protocol error response: the envelope and its code as the one message', () => {
    const challenge = { headers: { 'www-authenticate': 'Bearer realm="https://shop.example"' } };
    const missing = new ProtocolError('identity_required', 'get_order needs the buyer’s identity', challenge);
    expect([missing.status, missing.jsonRpcCode]).toEqual([401, JSONRPC.server]);
    expect(missing.toBody()).toEqual({
      proto: { version: '2026-04-08', status: 'error' },
      messages: [
        { type: 'error', code: 'identity_required', content: 'get_order needs the buyer’s identity', severity: 'requires_buyer_review' },
      ],
    });
    expect(new ProtocolError('insufficient_scope', 'needs order:read').toBody()).toMatchObject({
      messages: [{ type: 'error', code: 'insufficient_scope', severity: 'requires_buyer_review' }],
    });
    // Every such row is a transport error and an error message with its severity.
    for (const [code, row] of catalogueRows().filter(([, r]) => r.body === 'messages')) {
      expect([row.status, row.message, row.severity], code).toEqual([expect.any(Number), 'error', expect.any(String)]);
    }
  });

  it('discovery failures are -32001 on MCP and A2A, malformed JSON -32700, other 400s -32602 (spec part 1 §7)', () => {
    const discovery = ['invalid_profile_url', 'profile_unreachable', 'profile_malformed', 'version_unsupported'] as const;
    for (const code of discovery) expect(ERROR_CATALOGUE[code].jsonRpc, code).toBe(-32001);
    expect(ERROR_CATALOGUE.invalid_json.jsonRpc).toBe(-32700);
    for (const [code, row] of catalogueRows()) {
      if (row.status === 400 && code !== 'invalid_json' && !(discovery as readonly string[]).includes(code)) {
        expect(row.jsonRpc, code).toBe(-32602);
      }
    }
  });

  it('each row is a transport error (status and JSON-RPC code), a business message, or both; errors carry a severity', () => {
    for (const [code, row] of catalogueRows()) {
      expect(row.status !== undefined || row.message !== undefined, code).toBe(true);
      expect(row.status === undefined, code).toBe(row.jsonRpc === undefined);
      expect(row.severity !== undefined, code).toBe(row.message === 'error');
      expect(row.meaning, code).toMatch(/^[^\n]{10,200}$/);
    }
  });

  it('a code outside the catalogue does not typecheck', () => {
    // @ts-expect-error: a typo is not a transport error code.
    expect(() => new ProtocolError('invalid_reqest', 'x')).toThrow();
    // @ts-expect-error: a business message code is not a transport error.
    expect(new ProtocolError('out_of_stock', 'x').status).toBeUndefined();
    // @ts-expect-error: nor is a transport-only code a message.
    expect(errorMessage('rate_limited', 'x', 'recoverable').code).toBe('rate_limited');
    expect(warningMessage('discount_code_expired', 'x').type).toBe('warning');
  });
});

/**
 * `npm run docs:errors`: writes docs/errors.md from the error catalogue
 * (src/protocol/error-catalogue.ts). test/protocol/error-catalogue.test.ts renders it again in
 * memory and fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { catalogueRows, JSONRPC, type CatalogueRow } from '../src/protocol/error-catalogue.js';
import { exitOnHelp } from './cli-help.js';

export const ERROR_DOCS_PATH = 'docs/errors.md';

const JSONRPC_NAMES: Record<number, string> = {
  [JSONRPC.parseError]: 'parse error',
  [JSONRPC.invalidRequest]: 'invalid request',
  [JSONRPC.invalidParams]: 'invalid params',
  [JSONRPC.discovery]: 'discovery',
  [JSONRPC.server]: 'server error',
};

const NONE = '—';
const cell = (text: string) => text.replace(/\|/g, '\\|');

function asMessage(row: CatalogueRow): string {
  if (!row.message) return NONE;
  const message = row.severity ? `${row.message}, ${row.severity}` : row.message;
  return row.body === 'messages' ? `${message} (its transport error's body)` : message;
}

function line([code, row]: [string, CatalogueRow]): string {
  const status = row.status === undefined ? NONE : String(row.status);
  const jsonRpc = row.jsonRpc === undefined ? NONE : `${row.jsonRpc} (${JSONRPC_NAMES[row.jsonRpc]})`;
  const meaning = row.only ? `${row.meaning} Only on: ${row.only}.` : row.meaning;
  return `| \`${code}\` | ${status} | ${jsonRpc} | ${asMessage(row)} | ${cell(meaning)} |`;
}

/** docs/errors.md as the catalogue renders it. */
export function renderErrorDocs(): string {
  return [
    '# Error codes',
    '',
    '<!-- Generated from src/protocol/error-catalogue.ts by `npm run docs:errors`: edit the catalogue, not this file. -->',
    '',
    'Every code the gateway answers with. A code with an HTTP status is a **transport error** (spec part 1 §7, layer 1): it',
    'stops processing; REST answers that status with `{"code", "content"}` (and `Retry-After` where retrying helps), MCP and',
    'A2A a JSON-RPC error with that code and `data: {code, http_status, retry_after?, www_authenticate?}`. A code with a',
    'message type is a **business message** (layer 2): it travels in a normal answer (HTTP 200, `proto.status` "error" when',
    'the operation failed) in `messages`, errors with the severity given unless the outcome calls for another. `not_found`',
    'and `unauthorized` are both.',
    '',
    'The identity failures, `identity_required` and `insufficient_scope`, are transport errors whose body is a protocol error',
    'response (upstream identity-linking.md): the `proto` envelope with `status` "error" and the code as its one message',
    '(`requires_buyer_review`), beside the Bearer challenge in `WWW-Authenticate`; MCP and A2A add `proto` and `messages` to',
    'the JSON-RPC error data, the challenge as `www_authenticate`.',
    '',
    'Not listed: the embedded page’s own session errors to its host (`abort_error`, `security_error`, `invalid_state_error`,',
    '`not_supported_error`, `timeout_error`; spec part 2 §7, in src/embedded/page/host-link.ts), and the OAuth 2.0 errors',
    '(RFC 6749 §5.2) of the identity-linking endpoints.',
    '',
    '| Code | HTTP status | JSON-RPC code | As a message | Meaning |',
    '| --- | --- | --- | --- | --- |',
    ...catalogueRows().map(line),
    '',
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitOnHelp({
    script: 'docs:errors',
    commands: [{ usage: '', does: `writes ${ERROR_DOCS_PATH} from the error catalogue (src/protocol/error-catalogue.ts)` }],
  });
  writeFileSync(ERROR_DOCS_PATH, renderErrorDocs());
  process.stdout.write(`wrote ${ERROR_DOCS_PATH}\n`);
}

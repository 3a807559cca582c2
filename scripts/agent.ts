/**
 * The example agent (docs/examples/agent): a platform whose profile publishes a public key, and
 * this command, which signs requests with the private half the way a platform does (RFC 9421,
 * the gateway's own signing code) so it may read the orders it placed.
 *
 *   npm run agent -- get-order <order id>
 *
 * GATEWAY_URL (default http://127.0.0.1:$PORT, PORT 8080), AGENT_PROFILE (default the example
 * profile served on http://127.0.0.1:9000) and AGENT_KEY_FILE (default the example's private JWK)
 * point it elsewhere. The answer's body goes to stdout; a non-2xx answer, or one whose
 * proto.status is not success, exits 1. Key material is never printed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signingKeyFromJwk } from '../src/security/keyring.js';
import { signRequest } from '../src/security/sign.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export interface AgentSettings {
  gateway: string;
  profile: string;
  keyFile: string;
}

const USAGE = 'usage: npm run agent -- get-order <order id>';

export function agentSettings(env: NodeJS.ProcessEnv): AgentSettings {
  return {
    gateway: (env.GATEWAY_URL || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, ''),
    profile: env.AGENT_PROFILE || 'http://127.0.0.1:9000/.well-known/proto',
    keyFile: resolve(env.AGENT_KEY_FILE || 'docs/examples/agent.private.jwk'),
  };
}

export async function run(args: readonly string[], io: Io, settings: AgentSettings): Promise<number> {
  const [command, orderId, ...extra] = args;
  if (command !== 'get-order' || !orderId || extra.length > 0) {
    io.err(USAGE);
    return 2;
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(readFileSync(settings.keyFile, 'utf8'));
  } catch (error) {
    // The parser's message quotes the file's first bytes: key material, never printed.
    const why =
      error instanceof SyntaxError
        ? 'is not JSON (a private JWK is expected)'
        : `cannot be read (${(error as NodeJS.ErrnoException).code})`;
    io.err(`${settings.keyFile} ${why}`);
    return 1;
  }
  const key = await signingKeyFromJwk(jwk, settings.keyFile);
  const url = `${settings.gateway}/orders/${encodeURIComponent(orderId)}`;
  const headers = signRequest(
    {
      method: 'GET',
      url,
      headers: { 'proto-agent': `profile="${settings.profile}"`, 'request-id': randomUUID(), accept: 'application/json' },
    },
    { key, now: Date.now },
  );
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch (error) {
    const { cause, message } = error as Error;
    io.err(`no answer from ${settings.gateway}: ${cause instanceof Error ? cause.message : message}`);
    return 1;
  }
  const text = await response.text();
  io.out(text);
  if (!response.ok) {
    io.err(`GET ${url} answered ${response.status}`);
    return 1;
  }
  // A business outcome that failed (unauthorized, not_found) is a 200 whose proto.status is error.
  const failed = protocolFailure(text);
  if (failed === undefined) return 0;
  io.err(`GET ${url} answered an error: ${failed}`);
  return 1;
}

/** The messages of an answer whose `proto.status` is not success, else undefined. */
function protocolFailure(text: string): string | undefined {
  let body: { proto?: { status?: unknown }; messages?: Array<{ code?: unknown; content?: unknown }> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return 'the body is not JSON';
  }
  if (body?.proto?.status === 'success') return undefined;
  const messages = (body?.messages ?? []).map((m) => `${String(m.code)}: ${String(m.content)}`);
  return messages.join('; ') || `proto.status is ${String(body?.proto?.status)}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const io: Io = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };
  run(process.argv.slice(2), io, agentSettings(process.env)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`failed: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}

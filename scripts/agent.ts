/**
 * The example agent (docs/examples/agent): a platform whose profile publishes a public key, and
 * this command, which signs requests with the private half the way a platform does (RFC 9421,
 * the gateway's own signing code) so it may read the orders it placed.
 *
 *   npm run agent -- --help          (every command with what it does)
 *
 * `serve` serves docs/examples/agent (the profile) on 127.0.0.1, on the port of AGENT_PROFILE
 * unless --port says otherwise, quietly (no access log); it prints once it is serving and stops
 * on Ctrl-C or SIGTERM. With --detach it returns as soon as the server (a background process
 * with no hold on the terminal) is serving, and prints the process id that stops it.
 * GATEWAY_URL (default http://127.0.0.1:$PORT, PORT 8080), AGENT_PROFILE (default the example
 * profile served on http://127.0.0.1:9000) and AGENT_KEY_FILE (default the example's private JWK)
 * point it elsewhere. The answer's body goes to stdout; a non-2xx answer, or one whose
 * proto.status is not success, exits 1. Key material is never printed.
 *
 * `link` links a buyer's store account to the agent (scripts/agent-link.ts): it reads the
 * tenant's file (CONFIG_DIR, default config) for its base URL (else GATEWAY_URL) and its public
 * OAuth client, prints the URL the buyer opens (`--open` hands it to the desktop's browser),
 * waits for the loopback redirect, then reads each `--order` with the buyer's token. With
 * `--print-token` the buyer's access token goes to stdout first (a warning to stderr), for calls of
 * one's own (curl, an MCP client); otherwise it is never printed.
 */
import { fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { ORDER_READ } from '../src/security/auth/scopes.js';
import { signingKeyFromJwk } from '../src/security/keyring.js';
import { signRequest } from '../src/security/sign.js';
import { linkAccount } from './agent-link.js';
import { serveFolder } from './agent-server.js';
import { asksForHelp, helpText, type ToolHelp } from './cli-help.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export interface AgentSettings {
  gateway: string;
  profile: string;
  keyFile: string;
  /** Where `link` finds the tenant files (default ./config). */
  configDir?: string;
}

const HELP: ToolHelp = {
  script: 'agent',
  commands: [
    {
      usage: 'get-order <order id>',
      does: 'reads an order this agent placed, with a request signed by its key (RFC 9421); the order JSON to stdout',
    },
    {
      usage: 'serve [--port N] [--detach]',
      does: "serves the example agent's profile on 127.0.0.1; --detach returns once serving and prints the kill that stops it",
    },
    {
      usage: 'link --tenant <id> [--order <order id>]... [--print-token] [--scope <scope>] [--client <client id>] [--open]',
      does: "links a buyer's store account, then reads each --order with the buyer's token (--print-token: the token too)",
    },
  ],
  notes: [
    'environment: GATEWAY_URL (default http://127.0.0.1:$PORT, PORT 8080), AGENT_PROFILE (default http://127.0.0.1:9000/.well-known/proto),',
    '  AGENT_KEY_FILE (default docs/examples/agent.private.jwk), CONFIG_DIR (where link reads the tenant, default ./config)',
  ],
};
const USAGE = helpText(HELP);
const FOLDER = 'docs/examples/agent';

export function agentSettings(env: NodeJS.ProcessEnv): AgentSettings {
  return {
    gateway: (env.GATEWAY_URL || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, ''),
    profile: env.AGENT_PROFILE || 'http://127.0.0.1:9000/.well-known/proto',
    keyFile: resolve(env.AGENT_KEY_FILE || 'docs/examples/agent.private.jwk'),
    configDir: resolve(env.CONFIG_DIR || 'config'),
  };
}

export async function run(args: readonly string[], io: Io, settings: AgentSettings): Promise<number> {
  const [command, orderId, ...extra] = args;
  if (asksForHelp(args)) {
    io.out(USAGE);
    return 0;
  }
  if (command === 'serve') return serve(args.slice(1), io, settings);
  if (command === 'link') return link(args.slice(1), io, settings);
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

async function serve(options: readonly string[], io: Io, settings: AgentSettings): Promise<number> {
  const at = options.indexOf('--port');
  const port = Number(at >= 0 ? options[at + 1] : new URL(settings.profile).port || 80);
  const known = options.every((o, i) => o === '--detach' || o === '--port' || (i > 0 && options[i - 1] === '--port'));
  if (!Number.isInteger(port) || port <= 0 || port > 65535 || !known) {
    io.err(USAGE);
    return 2;
  }
  const profile = `http://127.0.0.1:${port}/.well-known/proto`;
  if (options.includes('--detach')) return detach(port, profile, io);
  let server: Awaited<ReturnType<typeof serveFolder>>;
  try {
    server = await serveFolder(FOLDER, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.err(code === 'EADDRINUSE' ? await portInUse(port) : `cannot serve on 127.0.0.1:${port}: ${code ?? (error as Error).message}`);
    return 1;
  }
  process.send?.('serving'); // to a --detach parent waiting for readiness
  io.out(`the example agent's profile is served at ${profile} (Ctrl-C stops)`);
  await new Promise<void>((stopped) => {
    const stop = () => server.close(() => stopped());
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
  return 0;
}

interface LinkArgs {
  tenant: string;
  orders: string[];
  scope: string;
  client?: string;
  open: boolean;
  printToken: boolean;
}

function linkArgs(options: readonly string[]): LinkArgs | undefined {
  const parsed: LinkArgs = { tenant: '', orders: [], scope: ORDER_READ, open: false, printToken: false };
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    if (option === '--open' || option === '--print-token') {
      parsed[option === '--open' ? 'open' : 'printToken'] = true;
      continue;
    }
    const value = options[++i];
    if (value === undefined || value.startsWith('--')) return undefined;
    if (option === '--tenant') parsed.tenant = value;
    else if (option === '--order') parsed.orders.push(value);
    else if (option === '--scope') parsed.scope = value;
    else if (option === '--client') parsed.client = value;
    else return undefined;
  }
  return parsed.tenant ? parsed : undefined;
}

/** Hands the URL to the desktop's browser; a machine without one still has the printed URL. */
function openInBrowser(url: string, io: Io): void {
  const [command, ...args] =
    process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.once('error', () => io.err('no browser could be started: open the URL above yourself'));
  child.unref();
}

async function link(options: readonly string[], io: Io, settings: AgentSettings): Promise<number> {
  const args = linkArgs(options);
  if (!args) {
    io.err(USAGE);
    return 2;
  }
  const configDir = settings.configDir ?? resolve('config');
  const tenant = loadTenantFiles(configDir).find((t) => t.config.id === args.tenant)?.config;
  if (!tenant) {
    io.err(`no tenant "${args.tenant}" in ${configDir}/tenants`);
    return 1;
  }
  // The agent is a public client: no secret, a loopback redirect URI (any port).
  const client = (tenant.identity_linking?.clients ?? []).find(
    (c) =>
      (args.client === undefined || c.client_id === args.client) &&
      (c.auth_method ?? 'none') === 'none' &&
      (c.redirect_uris ?? []).some((uri) => new URL(uri).hostname === '127.0.0.1'),
  );
  if (!client) {
    const which = args.client === undefined ? 'public OAuth client' : `public OAuth client "${args.client}"`;
    io.err(`tenant ${args.tenant} has no ${which} with a 127.0.0.1 redirect URI under identity_linking.clients`);
    return 1;
  }
  const gateway = (tenant.base_url ?? settings.gateway).replace(/\/+$/, '');
  const outcome = await linkAccount({
    gateway,
    clientId: client.client_id,
    profile: client.profile,
    scope: args.scope,
    orders: args.orders,
    onAuthorizationUrl: (url) => {
      io.err(`Open this URL in a browser and sign in as a buyer of ${tenant.name} (Ctrl-C stops):`);
      io.err(url);
      if (args.open) openInBrowser(url, io);
    },
  });
  const expires = outcome.expiresIn === undefined ? '' : `, the access token expires in ${outcome.expiresIn} s`;
  io.err(`linked: ${client.client_id} holds ${outcome.scope} from ${outcome.issuer}${expires}`);
  if (args.printToken) {
    io.err("the buyer's access token follows on stdout: whoever holds it reads the buyer's orders until it expires; keep it out of logs");
    io.out(outcome.accessToken);
  }
  let failed = 0;
  for (const order of outcome.orders) {
    io.out(typeof order.body === 'string' ? order.body : JSON.stringify(order.body));
    const why = order.status >= 300 ? `answered ${order.status}` : protocolFailure(JSON.stringify(order.body));
    if (why !== undefined) {
      io.err(`order ${order.id}: ${why}`);
      failed++;
    }
  }
  return failed === 0 ? 0 : 1;
}

/** Why `serve` cannot listen on a busy port, and what to do: most often it is an agent served earlier with --detach. */
async function portInUse(port: number): Promise<string> {
  const profile = `http://127.0.0.1:${port}/.well-known/proto`;
  const served = await fetch(profile, { signal: AbortSignal.timeout(2000) }).then(
    async (response) => response.ok && typeof ((await response.json()) as { proto?: unknown }).proto === 'object',
    () => false,
  );
  const earlier = '`npm run agent -- serve --detach`';
  return [
    served
      ? `127.0.0.1:${port} is in use: an agent's profile is already served there (${profile}), probably by an earlier ${earlier}.`
      : `127.0.0.1:${port} is in use: an agent may already be serving there (an earlier ${earlier}), or another program.`,
    `Stop it with the \`kill <pid>\` that --detach printed (\`ss -ltnp 'sport = :${port}'\` names the process),`,
    'or serve on another port with --port.',
  ].join('\n');
}

/** The server in a background process that keeps no hold on this terminal; returns once it serves. */
async function detach(port: number, profile: string, io: Io): Promise<number> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', '--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let why = '';
  child.stderr?.on('data', (chunk: Buffer) => (why += chunk.toString('utf8')));
  const ready = await new Promise<boolean>((done) => {
    child.once('message', () => done(true));
    child.once('exit', () => done(false));
  });
  if (!ready) {
    io.err(why.trim() || 'the file server stopped before serving');
    return 1;
  }
  child.stderr?.destroy();
  child.disconnect();
  child.unref();
  io.out(`the example agent's profile is served at ${profile} (pid ${child.pid}; stop it with: kill ${child.pid})`);
  return 0;
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

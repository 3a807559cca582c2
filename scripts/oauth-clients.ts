/**
 * `npm run keys -- oauth-client create|list|revoke`: OAuth clients of confidential platforms at a
 * tenant's authorization server (identity linking), each mapped to the platform's profile URL.
 *
 *   oauth-client create --tenant <id> --profile <URL> --auth client_secret_basic
 *                       [--secret-env NAME | --secret-file PATH] [--name <label>] [--redirect-uris <URI,...>]
 *   oauth-client create --tenant <id> --profile <URL> --auth private_key_jwt
 *                       (--jwks-url <https URL> | --jwks-file PATH) [--name <label>] [--redirect-uris <URI,...>]
 *   oauth-client list   --tenant <id>
 *   oauth-client revoke --tenant <id> <client id>
 *
 * Without --secret-env or --secret-file a secret is generated, printed once, and written to a file
 * readable by its owner only beside the credentials file (the authorization server compares the
 * secret itself, so it cannot keep a hash); the credentials file holds only the reference.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError } from '../adapters/kit/config-error.js';
import { readIssuedCredentials, writeIssuedCredentials, type IssuedOAuthClient } from '../src/config/issued-credentials.js';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { CAPABILITY } from '../src/protocol/capability-registry.js';
import { helpText, type CommandHelp } from './cli-help.js';
import { isProfileUrl, parse, revokeIssued, type Io } from './issued-tool.js';

export const OAUTH_CLIENT_COMMANDS: readonly CommandHelp[] = [
  {
    usage:
      'oauth-client create --tenant <id> --profile <platform profile URL> --auth client_secret_basic ' +
      '[--secret-env NAME | --secret-file PATH] [--name <label>] [--redirect-uris <URI,...>]',
    does: "registers a confidential platform at the tenant's authorization server (no secret reference: one is made, printed once)",
  },
  {
    usage:
      'oauth-client create --tenant <id> --profile <platform profile URL> --auth private_key_jwt ' +
      '(--jwks-url <https URL> | --jwks-file PATH) [--name <label>] [--redirect-uris <URI,...>]',
    does: 'registers a platform that authenticates with a JWT signed by one of its public keys',
  },
  { usage: 'oauth-client list --tenant <id>', does: "lists the tenant's OAuth clients: id, active or revoked, platform, authentication" },
  {
    usage: 'oauth-client revoke --tenant <id> <client id>',
    does: 'revokes a client (a running gateway refuses its tokens after its next reload)',
  },
];
const OAUTH_CLIENT_USAGE = helpText({ script: 'keys', commands: OAUTH_CLIENT_COMMANDS });

/** Members of a private JWK: a JWKS file must hold public keys only. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

export function runOAuthClients(args: readonly string[], io: Io, configDir: string, now = () => new Date()): number {
  try {
    return command(args, io, configDir, now);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(error.message);
    return 1;
  }
}

const secretPath = (configDir: string, tenantId: string, clientId: string) =>
  join(configDir, 'credentials', `${tenantId}.${clientId}.secret`);

function readJwks(path: string): { keys: Array<Record<string, unknown>> } {
  let jwks: unknown;
  try {
    jwks = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'is not JSON' : `cannot be read (${(error as NodeJS.ErrnoException).code})`;
    throw new ConfigError(`--jwks-file ${path} ${why}`);
  }
  const keys = (jwks as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'object' && k !== null && 'kty' in k))
    throw new ConfigError(`--jwks-file ${path}: a JWK Set ({"keys": [...]}) is expected`);
  if (keys.some((k) => PRIVATE_MEMBERS.some((m) => m in (k as object))))
    throw new ConfigError(`--jwks-file ${path} holds private key material: give the platform's public keys only`);
  return { keys: keys as Array<Record<string, unknown>> };
}

function command(args: readonly string[], io: Io, configDir: string, now: () => Date): number {
  const [verb, ...rest] = args;
  const parsed = parse(rest);
  const tenantId = parsed?.flags.get('tenant');
  if (!parsed || !tenantId || !['create', 'list', 'revoke'].includes(verb ?? '')) {
    io.err(OAUTH_CLIENT_USAGE);
    return 2;
  }
  const tenant = loadTenantFiles(configDir).find((t) => t.config.id === tenantId);
  if (!tenant) {
    io.err(`no tenant "${tenantId}" in ${configDir}/tenants`);
    return 1;
  }
  const credentials = readIssuedCredentials(configDir, tenantId);
  const clients = (credentials.oauth_clients ??= []);

  if (verb === 'list') {
    if (clients.length === 0) io.out(`tenant ${tenantId} has registered no OAuth clients`);
    for (const c of clients) {
      const status = c.revoked_at ? `revoked ${c.revoked_at}` : 'active';
      const label = c.name ? `  (${c.name})` : '';
      io.out(`${c.client_id}  ${status.padEnd(31)}  ${c.auth_method.padEnd(19)}  created ${c.created_at}  ${c.profile}${label}`);
    }
    return 0;
  }

  if (verb === 'revoke') {
    const revocation = {
      kind: 'OAuth client',
      usage: OAUTH_CLIENT_USAGE,
      effect: 'refuses it',
      find: (id: string) => clients.find((c) => c.client_id === id),
      // A generated secret is of no use to anyone once its client is revoked.
      afterSave: (client: IssuedOAuthClient) => {
        if (client.generated_secret) rmSync(secretPath(configDir, tenantId, client.client_id), { force: true });
      },
    };
    return revokeIssued(revocation, parsed.positional, { configDir, tenantId, credentials, now }, io);
  }

  if (!(CAPABILITY.identityLinking in tenant.config.capabilities)) {
    io.err(`tenant ${tenantId} has no authorization server: list ${CAPABILITY.identityLinking} under its capabilities first`);
    return 1;
  }
  const profile = parsed.flags.get('profile');
  const auth = parsed.flags.get('auth');
  const known = ['tenant', 'profile', 'auth', 'name', 'redirect-uris', 'secret-env', 'secret-file', 'jwks-url', 'jwks-file'];
  if (!profile || !isProfileUrl(profile) || parsed.positional.length > 0 || [...parsed.flags.keys()].some((f) => !known.includes(f))) {
    io.err(
      profile && !isProfileUrl(profile) ? `--profile must be the platform's profile URL (http or https): ${profile}` : OAUTH_CLIENT_USAGE,
    );
    return 2;
  }
  if (auth !== 'client_secret_basic' && auth !== 'private_key_jwt') {
    io.err('--auth must be client_secret_basic or private_key_jwt (public agent clients are listed in the tenant file)');
    return 2;
  }
  const has = (flag: string) => parsed.flags.has(flag);
  if (
    auth === 'client_secret_basic'
      ? has('jwks-url') || has('jwks-file') || (has('secret-env') && has('secret-file'))
      : has('secret-env') || has('secret-file') || has('jwks-url') === has('jwks-file')
  ) {
    io.err(OAUTH_CLIENT_USAGE);
    return 2;
  }
  const redirects = parsed.flags.get('redirect-uris')?.split(',').filter(Boolean);
  const clientId = `pc_${randomBytes(8).toString('hex')}`;
  const name = parsed.flags.get('name');
  const client: IssuedOAuthClient = {
    client_id: clientId,
    ...(name !== undefined && { name }),
    profile: new URL(profile).href,
    auth_method: auth,
    ...(redirects && redirects.length > 0 && { redirect_uris: redirects }),
    created_at: now().toISOString(),
  };
  let generated: string | undefined;
  // File references are written relative to the tenant file, as a hand-written one would be.
  const fromTenantFile = (path: string) => relative(dirname(resolve(tenant.file)), resolve(path));
  if (auth === 'client_secret_basic') {
    const env = parsed.flags.get('secret-env');
    const file = parsed.flags.get('secret-file');
    if (env !== undefined) {
      if (!/^[A-Z_][A-Z0-9_]*$/.test(env))
        throw new ConfigError(`--secret-env ${env}: an environment variable name (A-Z, 0-9, _) is expected`);
      client.client_secret = { env };
    } else if (file !== undefined) {
      if (!existsSync(file)) throw new ConfigError(`--secret-file ${file} does not exist`);
      client.client_secret = { file: isAbsolute(file) ? file : fromTenantFile(file) };
    } else {
      generated = `cs_${randomBytes(32).toString('base64url')}`;
      const path = secretPath(configDir, tenantId, clientId);
      writeIssuedCredentials(configDir, tenantId, credentials); // makes the folder
      writeFileSync(path, `${generated}\n`, { mode: 0o600 });
      client.client_secret = { file: fromTenantFile(path) };
      client.generated_secret = true;
    }
  } else {
    const url = parsed.flags.get('jwks-url');
    if (url !== undefined) {
      if (!url.startsWith('https://') || !URL.canParse(url)) throw new ConfigError(`--jwks-url ${url}: an https URL is expected`);
      client.jwks_uri = url;
    } else client.jwks = readJwks(parsed.flags.get('jwks-file')!);
  }
  clients.push(client);
  const file = writeIssuedCredentials(configDir, tenantId, credentials);
  io.out(`# OAuth client ${clientId} (${auth}) for ${client.profile}, saved in ${file}.`);
  if (generated !== undefined) {
    io.out('# The client secret: give it to the platform now; it is not shown again.');
    io.out(generated);
  }
  io.out(`# Token endpoint: <tenant base URL>/oauth2/token (grant_type=client_credentials${redirects ? ' or authorization_code' : ''}).`);
  io.out('# A running gateway accepts it after its next reload (kill -HUP <pid>) or restart.');
  return 0;
}

/**
 * `npm run keys -- api-key create|list|revoke`: X-API-Key keys a tenant issues to platforms.
 *
 *   api-key create --tenant <id> --profile <platform profile URL> [--name <label>]
 *   api-key list   --tenant <id>
 *   api-key revoke --tenant <id> <key id>
 *
 * The key is printed once by `create` and never stored: the tenant's credentials file
 * (<CONFIG_DIR>/credentials/<id>.json) keeps its SHA-256. The gateway reads the file with the
 * tenant files, so a running gateway takes a change at its next reload (SIGHUP) or restart.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConfigError } from '../adapters/kit/config-error.js';
import { loadTenantFiles } from '../src/config/load-tenants.js';
import { readIssuedCredentials, writeIssuedCredentials } from '../src/config/issued-credentials.js';
import { helpText, type CommandHelp } from './cli-help.js';
import { isProfileUrl, parse, revokeIssued, type Io } from './issued-tool.js';

export const API_KEY_COMMANDS: readonly CommandHelp[] = [
  {
    usage: 'api-key create --tenant <id> --profile <platform profile URL> [--name <label>]',
    does: 'issues a platform an X-API-Key key, printed once (the tenant keeps its SHA-256)',
  },
  { usage: 'api-key list --tenant <id>', does: "lists the tenant's API keys: id, active or revoked, platform" },
  { usage: 'api-key revoke --tenant <id> <key id>', does: 'revokes a key (a running gateway refuses it after its next reload)' },
];
const API_KEY_USAGE = helpText({ script: 'keys', commands: API_KEY_COMMANDS });

export function runApiKeys(args: readonly string[], io: Io, configDir: string, now = () => new Date()): number {
  try {
    return apiKeyCommand(args, io, configDir, now);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(error.message);
    return 1;
  }
}

function apiKeyCommand(args: readonly string[], io: Io, configDir: string, now: () => Date): number {
  const [command, ...rest] = args;
  const parsed = parse(rest);
  const tenantId = parsed?.flags.get('tenant');
  if (!parsed || !tenantId || !['create', 'list', 'revoke'].includes(command ?? '')) {
    io.err(API_KEY_USAGE);
    return 2;
  }
  // Only tenants that exist (and whose files are valid) get keys.
  if (!loadTenantFiles(configDir).some((t) => t.config.id === tenantId)) {
    io.err(`no tenant "${tenantId}" in ${configDir}/tenants`);
    return 1;
  }
  const credentials = readIssuedCredentials(configDir, tenantId);

  if (command === 'list') {
    if (credentials.api_keys.length === 0) io.out(`tenant ${tenantId} has issued no API keys`);
    for (const key of credentials.api_keys) {
      const status = key.revoked_at ? `revoked ${key.revoked_at}` : 'active';
      io.out(`${key.id}  ${status.padEnd(31)}  created ${key.created_at}  ${key.profile}${key.name ? `  (${key.name})` : ''}`);
    }
    return 0;
  }

  if (command === 'revoke') {
    const revocation = { kind: 'API key', usage: API_KEY_USAGE, effect: 'stops accepting it' };
    const find = (id: string) => credentials.api_keys.find((k) => k.id === id);
    return revokeIssued({ ...revocation, find }, parsed.positional, { configDir, tenantId, credentials, now }, io);
  }

  const profile = parsed.flags.get('profile');
  if (!profile || !isProfileUrl(profile) || parsed.positional.length > 0) {
    io.err(profile && !isProfileUrl(profile) ? `--profile must be the platform's profile URL (http or https): ${profile}` : API_KEY_USAGE);
    return 2;
  }
  const id = randomBytes(4).toString('hex');
  const key = `pk_${id}_${randomBytes(32).toString('base64url')}`;
  const name = parsed.flags.get('name');
  credentials.api_keys.push({
    id,
    ...(name !== undefined && { name }),
    profile: new URL(profile).href,
    sha256: createHash('sha256').update(key, 'utf8').digest('hex'),
    created_at: now().toISOString(),
  });
  const file = writeIssuedCredentials(configDir, tenantId, credentials);
  io.out('# The API key: give it to the platform now; it is not stored and cannot be shown again.');
  io.out(key);
  io.out(`# Key id ${id} for ${new URL(profile).href}, saved as a SHA-256 in ${file}.`);
  io.out('# The platform sends it as `X-API-Key: <key>`; a running gateway accepts it after its next reload (kill -HUP <pid>) or restart.');
  return 0;
}

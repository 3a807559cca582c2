/**
 * The signing-key tool: `npm run keys -- generate [--alg ES256|ES384|EdDSA] [--private-only]`
 * prints a new private JWK (kid = its RFC 7638 thumbprint), its public half, and how a tenant
 * file references it; `--private-only` prints the private JWK alone, for scripts. The private key
 * is printed once and never written anywhere by this tool.
 * `npm run keys -- api-key create|list|revoke ...` issues X-API-Key keys (scripts/api-keys.ts);
 * `npm run keys -- oauth-client create|list|revoke ...` registers OAuth clients (scripts/oauth-clients.ts).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAlgorithmName } from '../src/security/algorithms.js';
import { generatePrivateJwk, signingKeyFromJwk } from '../src/security/keyring.js';
import { API_KEY_COMMANDS, runApiKeys } from './api-keys.js';
import { asksForHelp, helpText } from './cli-help.js';
import type { Io } from './issued-tool.js';
import { OAUTH_CLIENT_COMMANDS, runOAuthClients } from './oauth-clients.js';

const USAGE = helpText({
  script: 'keys',
  commands: [
    {
      usage: 'generate [--alg ES256|ES384|EdDSA] [--private-only]',
      does: 'prints a new private signing key (JWK, default ES256), its public half and how a tenant file references it',
    },
    ...API_KEY_COMMANDS,
    ...OAUTH_CLIENT_COMMANDS,
  ],
  notes: ['environment: CONFIG_DIR (the tenant files and credentials/, default ./config)'],
});

function algorithmArg(args: readonly string[]): string | undefined {
  const at = args.findIndex((a) => a === '--alg' || a.startsWith('--alg='));
  if (at < 0) return 'ES256';
  const arg = args[at]!;
  return arg.includes('=') ? arg.slice('--alg='.length) : args[at + 1];
}

export async function run(args: readonly string[], io: Io, configDir = resolve(process.env.CONFIG_DIR || 'config')): Promise<number> {
  const [command, ...options] = args;
  if (asksForHelp(args)) {
    io.out(USAGE);
    return 0;
  }
  if (command === 'api-key') return runApiKeys(options, io, configDir);
  if (command === 'oauth-client') return runOAuthClients(options, io, configDir);
  const alg = algorithmArg(options);
  if (command !== 'generate' || alg === undefined || !isAlgorithmName(alg)) {
    io.err(USAGE);
    return 2;
  }
  const privateJwk = await generatePrivateJwk(alg);
  // Loading it back the way the gateway does proves the pair before anyone deploys it.
  const { kid, publicJwk } = await signingKeyFromJwk(privateJwk, 'generated key');
  if (options.includes('--private-only')) {
    io.out(JSON.stringify(privateJwk));
    return 0;
  }
  io.out('# Private signing key: keep it secret; save it alone in a file (chmod 600) or an environment variable.');
  io.out(JSON.stringify(privateJwk));
  io.out('# Public key: the gateway publishes it in the profile `keys` by itself.');
  io.out(JSON.stringify(publicJwk));
  io.out(
    `# Tenant file: signing: { keys: [{ file: keys/${kid}.json }], active_kid: "${kid}" }   (or { env: SIGNING_KEY } instead of file)`,
  );
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void run(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => (process.exitCode = code));
}

/**
 * What the `api-key` and `oauth-client` commands share: their argument parsing, the profile URL
 * check, and revocation (stamped in the tenant's credentials file, never deleted, so `list` still
 * shows it).
 */
import { writeIssuedCredentials, type IssuedCredentials } from '../src/config/issued-credentials.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** `--flag value` or `--flag=value`; the rest are positional. */
export function parse(args: readonly string[]): { flags: Map<string, string>; positional: string[] } | undefined {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) return undefined;
    flags.set(eq > 0 ? arg.slice(2, eq) : arg.slice(2), value);
  }
  return { flags, positional };
}

export function isProfileUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** One tenant's credentials file, read by the command. */
export interface IssuedFile {
  configDir: string;
  tenantId: string;
  credentials: IssuedCredentials;
  now: () => Date;
}

export interface Revocation<T extends { revoked_at?: string }> {
  /** How messages name it: "API key", "OAuth client". */
  kind: string;
  usage: string;
  find(id: string): T | undefined;
  /** What a running gateway does about it after its next reload ("refuses it"). */
  effect: string;
  /** Clean-up once the revocation is saved. */
  afterSave?(item: T): void;
}

/** `revoke --tenant <id> <id>`: the exit code, with what happened said on `io`. */
export function revokeIssued<T extends { revoked_at?: string }>(
  what: Revocation<T>,
  positional: readonly string[],
  file: IssuedFile,
  io: Io,
): number {
  const [id, ...extra] = positional;
  if (!id || extra.length > 0) {
    io.err(what.usage);
    return 2;
  }
  const item = what.find(id);
  if (!item) {
    io.err(`tenant ${file.tenantId} has no ${what.kind} ${id}`);
    return 1;
  }
  if (item.revoked_at) {
    io.out(`${what.kind} ${id} was already revoked at ${item.revoked_at}`);
    return 0;
  }
  item.revoked_at = file.now().toISOString();
  const path = writeIssuedCredentials(file.configDir, file.tenantId, file.credentials);
  what.afterSave?.(item);
  io.out(`revoked ${what.kind} ${id} (${path}); a running gateway ${what.effect} at its next reload (kill -HUP <pid>) or restart`);
  return 0;
}

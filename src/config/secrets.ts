/** Resolves secret references from tenant files. Values never reach a log line or error text. */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { SecretRef } from './tenant-schema.js';

export function resolveSecret(ref: SecretRef, where: string, baseDir: string, env: NodeJS.ProcessEnv): string {
  if ('env' in ref) {
    const value = env[ref.env];
    if (value === undefined || value === '') throw new ConfigError(`${where}: environment variable ${ref.env} is not set`);
    return value;
  }
  const path = isAbsolute(ref.file) ? ref.file : resolve(baseDir, ref.file);
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new ConfigError(`${where}: cannot read secret file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * For `create_secret` (the demo's simulation secret): a `{file}` reference whose file does not
 * exist gets a random secret written there, readable by its owner only, so a local run works
 * without setup and any shell can read it. An existing file is left as it is.
 */
export function createSecretFile(ref: SecretRef, where: string, baseDir: string): void {
  if (!('file' in ref)) throw new ConfigError(`${where}: create_secret needs a { file: ... } reference, where the secret is written`);
  const path = isAbsolute(ref.file) ? ref.file : resolve(baseDir, ref.file);
  try {
    writeFileSync(path, `${randomBytes(24).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new ConfigError(`${where}: cannot create secret file ${path} (${code ?? 'error'})`);
  }
}

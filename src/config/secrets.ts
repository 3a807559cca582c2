/** Resolves secret references from tenant files. Values never reach a log line or error text. */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
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

/**
 * Adapter settings from the environment: any value of `adapter.settings` written `{env: NAME}` is
 * the variable's value, read as if it were written in the tenant file (YAML: "250" is a number,
 * "true" a boolean, anything else text), so one tenant file serves staging and production. Only
 * `{env}`: `{file}` already names mapping files in settings. An unset variable stops start-up with
 * the setting's path; `missing` instead collects it (`npm run rest -- check` without real values).
 */
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../adapters/kit/config-error.js';

const isEnvRef = (value: unknown): value is { env: string } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 1 &&
  typeof (value as { env?: unknown }).env === 'string';

export interface EnvSettingOptions {
  /** Collects the variables that are not set (with the setting's path) and gives `placeholder(path)` for each. */
  missing?: { names: Map<string, string>; placeholder: (path: string) => unknown };
}

export function settingsFromEnvironment(
  settings: Record<string, unknown>,
  where: string,
  env: NodeJS.ProcessEnv,
  options: EnvSettingOptions = {},
): Record<string, unknown> {
  const resolve = (value: unknown, path: string): unknown => {
    if (isEnvRef(value)) {
      const text = env[value.env];
      if (text === undefined || text === '') {
        if (!options.missing) throw new ConfigError(`${where}: ${path}: environment variable ${value.env} is not set`);
        options.missing.names.set(value.env, path);
        return options.missing.placeholder(path);
      }
      return parseYaml(text) as unknown;
    }
    if (Array.isArray(value)) return value.map((v, i) => resolve(v, `${path}[${i}]`));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, `${path}.${k}`)]));
    return value;
  };
  return resolve(settings, '$.adapter.settings') as Record<string, unknown>;
}

/** A configuration problem that stops start-up; the message names the file, the field and the fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

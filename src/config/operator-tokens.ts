/**
 * The operator credentials the console's actions need: OPERATOR_TOKEN, or OPERATOR_TOKEN_FILE
 * (a file holding the same, for secret mounts). Either is one token, or several `name:token`
 * entries separated by commas or new lines, so each person on call has their own and every
 * action is logged with that name. A bare token is the operator "operator". None: the console
 * only shows, every action is refused.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../adapters/kit/config-error.js';

export interface OperatorToken {
  /** Who acts with it, as the action log names them. */
  name: string;
  token: string;
}

const MIN_TOKEN = 16;
const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

function parse(text: string, source: string): OperatorToken[] {
  const entries = text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    const colon = entry.indexOf(':');
    const [name, token] =
      colon > 0 && NAME.test(entry.slice(0, colon)) ? [entry.slice(0, colon), entry.slice(colon + 1)] : ['operator', entry];
    // The messages never repeat a token.
    if (token.length < MIN_TOKEN)
      throw new ConfigError(`${source}: each operator token must be at least ${MIN_TOKEN} characters (e.g. openssl rand -base64 24)`);
    return { name, token };
  });
}

export function operatorTokens(env: NodeJS.ProcessEnv): OperatorToken[] {
  const { OPERATOR_TOKEN: inline, OPERATOR_TOKEN_FILE: file } = env;
  if (inline && file) throw new ConfigError('set OPERATOR_TOKEN or OPERATOR_TOKEN_FILE, not both');
  if (inline) return parse(inline, 'OPERATOR_TOKEN');
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`OPERATOR_TOKEN_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const tokens = parse(text, 'OPERATOR_TOKEN_FILE');
  if (tokens.length === 0) throw new ConfigError(`OPERATOR_TOKEN_FILE: ${file} holds no token`);
  return tokens;
}

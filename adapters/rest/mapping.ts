/**
 * JSONata mappings of the tenant file, compiled once at start-up: a syntax error stops start-up
 * naming the tenant file and the JSON path of the expression. At run time, an expression that
 * throws on a store's answer, or gives nothing where the contract needs a value, is an
 * InvalidAnswerError (503 backend_invalid_response) naming the tenant, the contract method and
 * the expression; the store's data and the tenant's credentials never reach the message.
 */
import jsonata from 'jsonata';
import { InvalidAnswerError } from '../contract.js';
import { ConfigError } from '../kit/config-error.js';

export interface Expression {
  /** JSON path of the expression in the tenant file, e.g. $.adapter.settings.operations.search.response. */
  readonly path: string;
  evaluate(input: unknown, bindings: Record<string, unknown>): Promise<unknown>;
}

/** Where a mapping runs, for error messages. */
export interface MappingSite {
  tenant: string;
  method: string;
}

export class MappingError extends InvalidAnswerError {
  constructor(site: MappingSite, path: string, problem: string) {
    super(`tenant ${site.tenant}: ${site.method}: the mapping ${path} ${problem}`);
    this.name = 'MappingError';
  }
}

interface JsonataFailure {
  message?: string;
  code?: string;
  position?: number;
}

export function compileExpression(source: string, path: string, file: string): Expression {
  let compiled: ReturnType<typeof jsonata>;
  try {
    compiled = jsonata(source);
  } catch (error) {
    const { message, position } = error as JsonataFailure;
    throw new ConfigError(
      `${file}: ${path} is not a valid JSONata expression${position !== undefined ? ` (at character ${position})` : ''}: ` +
        (message ?? 'syntax error'),
    );
  }
  return { path, evaluate: (input, bindings) => compiled.evaluate(input, bindings) };
}

/**
 * Runs a mapping; `required` refuses an undefined result (the expression matched nothing).
 * JSONata's own error code and message are kept: they name the function or operator that failed.
 */
export async function runMapping(
  expression: Expression,
  site: MappingSite,
  input: unknown,
  bindings: Record<string, unknown>,
  required = true,
): Promise<unknown> {
  let result: unknown;
  try {
    result = await expression.evaluate(input, bindings);
  } catch (error) {
    const { code, message } = error as JsonataFailure;
    throw new MappingError(site, expression.path, `failed${code ? ` (${code})` : ''}: ${message ?? String(error)}`);
  }
  if (required && result === undefined) throw new MappingError(site, expression.path, "gave no value for the store's answer");
  return result;
}

/**
 * The REST tenant's operations compiled once at start-up: each operation's calls (the tenant's
 * own, or the defaults of the documented store API merged field by field) with every JSONata
 * expression compiled and the place in the tenant file it comes from, for errors.
 */
import { ConfigError } from '../kit/config-error.js';
import { DEFAULT_OPERATIONS, type ResolvedOperation } from './defaults.js';
import { compileSource, sourceOf, type Expression } from './mapping.js';
import {
  DEFAULT_CONCURRENCY,
  type AuthSettings,
  type ExpressionSource,
  type OperationName,
  type OperationSettings,
  type RestSettings,
  type StepSettings,
} from './settings.js';
import type { CompiledOperation, CompiledStep } from './steps.js';
import type { StoreClient } from './store-client.js';

export type Operation = CompiledOperation & { name: OperationName };

export const SETTINGS_PATH = '$.adapter.settings';

/** Compiles every expression of the operations once, with the place each comes from. */
export class OperationCompiler {
  readonly expressions: Expression[] = [];

  constructor(
    private readonly file: string,
    private readonly baseDir: string,
    /** The client that signs with an operation's or a step's own `auth`. */
    private readonly clientFor: (auth: AuthSettings, path: string) => StoreClient,
  ) {}

  expression(source: ExpressionSource | undefined, path: string): Expression | undefined {
    if (source === undefined) return undefined;
    const compiled = compileSource(sourceOf(source, path, this.file, this.baseDir), this.file);
    this.expressions.push(compiled);
    return compiled;
  }

  operation(name: OperationName, own: OperationSettings): Operation {
    const merged: ResolvedOperation = own.steps ? (own as ResolvedOperation) : { ...DEFAULT_OPERATIONS[name], ...own };
    const at = (field: string) => `${SETTINGS_PATH}.operations.${name}.${field}${own.steps || field in own ? '' : ' (default)'}`;
    const response = this.expression(merged.response, at('response'));
    if (own.steps) {
      const steps = own.steps.map((step, i): CompiledStep => {
        const path = (field: string) => `${SETTINGS_PATH}.operations.${name}.steps[${i}].${field}`;
        if (own.steps!.slice(0, i).some((s) => s.name === step.name))
          throw new ConfigError(`${this.file}: ${path('name')}: the step name "${step.name}" is used twice`);
        return this.step(step.name, { ...step, auth: step.auth ?? own.auth }, path, step.concurrency ?? DEFAULT_CONCURRENCY);
      });
      return { name, steps, single: false, ...(response && { response }) };
    }
    const step = this.step('call', merged, at, 1);
    return { name, steps: [step], single: true, ...(response && { response }) };
  }

  private step(
    name: string,
    s: Partial<StepSettings> & Pick<ResolvedOperation, 'method' | 'path'>,
    path: (field: string) => string,
    concurrency: number,
  ): CompiledStep {
    const fields = ['query', 'headers', 'body', 'when', 'for_each', 'error'] as const;
    const [query, headers, body, when, forEach, error] = fields.map((f) => this.expression(s[f], path(f)));
    return {
      name,
      ...(s.auth && { client: this.clientFor(s.auth, path('auth').slice(SETTINGS_PATH.length + 1)) }),
      method: s.method,
      path: s.path,
      concurrency,
      accept: s.accept ?? [],
      ...(query && { query }),
      ...(headers && { headers }),
      ...(body && { body }),
      ...(when && { when }),
      ...(forEach && { forEach }),
      ...(error && { error }),
    };
  }
}

export function compileOperations(
  settings: RestSettings,
  compiler: OperationCompiler,
): { ops: Record<OperationName, Operation>; checkoutLink: boolean } {
  const names = Object.keys(DEFAULT_OPERATIONS) as OperationName[];
  const configured = settings.operations ?? {};
  const checkoutLink = configured.checkout_url !== false;
  const entries = names.map((name) => {
    const own = configured[name];
    return [name, compiler.operation(name, own === false || own === undefined ? {} : own)] as const;
  });
  return { ops: Object.fromEntries(entries) as Record<OperationName, Operation>, checkoutLink };
}

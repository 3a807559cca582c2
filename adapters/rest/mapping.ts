/**
 * JSONata mappings of the tenant file, compiled once at start-up: inline in the tenant file, or
 * in files of their own (`{file: mappings/<tenant>/<name>.jsonata}`, shared functions in
 * `functions_file`). Start-up stops on a syntax error, and on a function or variable that is
 * defined nowhere (JSONata itself only finds those at run time), naming the file, line, column
 * and the shared function it is in. At run time, an expression that throws on a store's answer,
 * or gives nothing where the contract needs a value, is an InvalidAnswerError (503
 * backend_invalid_response) naming the tenant, the contract method, the step, the place in the
 * mapping and an excerpt of the store's answer; the tenant's credentials never reach the message.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { InvalidAnswerError } from '../contract.js';
import { ConfigError } from '../kit/config-error.js';
import { jsonata, type SyncExpression } from './jsonata.js';
import type { ExpressionSource } from './settings.js';
import { yamlOrigin, type YamlOrigin } from './yaml-places.js';

export interface Expression {
  /** JSON path of the expression in the tenant file, e.g. $.adapter.settings.operations.search.response. */
  readonly path: string;
  readonly source: SourceText;
  evaluate(input: unknown, bindings: Record<string, unknown>): unknown;
}

/** Where a mapping runs, for error messages. */
export interface MappingSite {
  tenant: string;
  method: string;
  /** The operation's step, for multi-step operations. */
  step?: string;
  /** The store's answer the mapping read (an excerpt goes into the message). */
  answer?: unknown;
  /** Texts that must never appear in a message (the tenant's credentials). */
  secrets?: readonly string[];
}

const EXCERPT_CHARS = 240;

export function scrub(text: string, secrets: readonly string[] = []): string {
  return secrets.filter((s) => s.length >= 4).reduce((t, s) => t.split(s).join('[redacted]'), text);
}

function excerpt(answer: unknown): string {
  if (answer === undefined) return '';
  let text: string;
  try {
    text = JSON.stringify(answer) ?? '';
  } catch {
    return '';
  }
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

export class MappingError extends InvalidAnswerError {
  constructor(site: MappingSite, where: string, problem: string) {
    const step = site.step ? ` step ${site.step}:` : '';
    const answer = excerpt(site.answer);
    super(
      scrub(
        `tenant ${site.tenant}: ${site.method}:${step} the mapping ${where} ${problem}` + (answer ? `; the store answered ${answer}` : ''),
        site.secrets,
      ),
    );
    this.name = 'MappingError';
  }
}

interface JsonataFailure {
  message?: string;
  code?: string;
  position?: number;
  token?: string;
  /** Set by a shared function's wrapper: the failure happened inside it. */
  mappingSource?: { source: SourceText; name: string };
}

const FUNCTION_START = /^\$([A-Za-z_]\w*)\s*:=\s*function\b/gm;

/** The text of an expression and where it lives, to turn JSONata's character offsets into places. */
export class SourceText {
  /** Start offsets of the top-level `$name := function` definitions, in order. */
  private readonly functions: Array<{ name: string; start: number }> = [];

  constructor(
    readonly text: string,
    /** The JSON path in the tenant file. */
    readonly path: string,
    /** The .jsonata file (shown relative to the working folder), or undefined when inline. */
    readonly file?: string,
    /** The shared function an inline expression defines. */
    readonly functionName?: string,
    /** Where an inline expression sits in the tenant's YAML file. */
    readonly origin?: YamlOrigin,
  ) {
    for (const match of text.matchAll(FUNCTION_START)) this.functions.push({ name: match[1]!, start: match.index });
  }

  /** Line and column (1-based) of a character offset. */
  lineColumn(offset: number): { line: number; column: number } {
    const before = this.text.slice(0, Math.max(0, Math.min(offset, this.text.length)));
    const lines = before.split('\n');
    return { line: lines.length, column: lines.at(-1)!.length + 1 };
  }

  /** The shared function defined around `offset`. */
  functionAt(offset: number): string | undefined {
    if (this.functionName) return this.functionName;
    return this.functions.filter((f) => f.start <= offset).at(-1)?.name;
  }

  /**
   * "mappings/shop/quote.jsonata:12:7 (in function $cart)" for a file, "$.adapter…response (at
   * character 14)" inline. `position` is JSONata's: the offset just after the token.
   */
  at(position: number | undefined, token?: string): string {
    const offset = position === undefined ? undefined : Math.max(0, position - (token?.length ?? 1));
    const fn = offset === undefined ? this.functionName : this.functionAt(offset);
    const inFunction = fn ? ` (in function $${fn})` : '';
    if (!this.file && this.origin && offset !== undefined) {
      const { line, column } = this.origin.place(offset);
      return `${this.origin.file}:${line}:${column}${inFunction}`;
    }
    if (!this.file) return `${this.path}${position !== undefined ? ` (at character ${position})` : ''}${inFunction}`;
    if (offset === undefined) return `${this.file}${inFunction}`;
    const { line, column } = this.lineColumn(offset);
    return `${this.file}:${line}:${column}${inFunction}`;
  }
}

/** Reads an expression's text: inline, or from its file (relative to the tenant file's folder). */
export function sourceOf(source: ExpressionSource, path: string, tenantFile: string, baseDir: string): SourceText {
  if (typeof source === 'string') return new SourceText(source, path, undefined, undefined, yamlOrigin(tenantFile, path, source));
  const file = resolve(baseDir, source.file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${tenantFile}: ${path} names ${source.file}, which cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  return new SourceText(text, path, relative(process.cwd(), file) || file);
}

function syntaxError(source: SourceText, tenantFile: string, error: JsonataFailure): ConfigError {
  const { message, position, token } = error;
  const problem = message ?? 'syntax error';
  if (!source.file && (!source.origin || position === undefined))
    return new ConfigError(
      `${tenantFile}: ${source.path} is not a valid JSONata expression` +
        `${position !== undefined ? ` (at character ${position})` : ''}: ${problem}`,
    );
  return new ConfigError(`${source.at(position, token)}: ${source.path} is not a valid JSONata expression: ${problem}`);
}

/**
 * Compiled expressions by text: every adapter built from the same settings (a reload, a tenant per
 * test) compiles the same texts, and an evaluation never changes the compiled expression.
 */
const compiledTexts = new Map<string, SyncExpression>();
const MAX_COMPILED_TEXTS = 2_000;

export function compileSource(source: SourceText, tenantFile: string): Expression {
  let compiled = compiledTexts.get(source.text);
  if (!compiled) {
    try {
      compiled = jsonata(source.text);
    } catch (error) {
      throw syntaxError(source, tenantFile, error as JsonataFailure);
    }
    if (compiledTexts.size >= MAX_COMPILED_TEXTS) compiledTexts.clear();
    compiledTexts.set(source.text, compiled);
  }
  return {
    path: source.path,
    source,
    evaluate: (input, bindings) => compiled.evaluate(input, bindings),
    ast: compiled.ast(),
  } as Expression;
}

// ---------------------------------------------------------------- names defined nowhere

interface AstNode {
  type?: string;
  value?: unknown;
  position?: number;
  [key: string]: unknown;
}

const builtins = new Map<string, boolean>();

function isBuiltin(name: string): boolean {
  let known = builtins.get(name);
  if (known === undefined) {
    known = jsonata(`$${name}`).evaluate({}) !== undefined;
    builtins.set(name, known);
  }
  return known;
}

/** Every name the expression binds anywhere ($x := …, lambda parameters, @$focus, #$index): scoping is not modelled. */
function declared(node: unknown, names: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((n) => declared(n, names));
  if (node === null || typeof node !== 'object') return;
  const n = node as AstNode;
  if (n.type === 'bind' && (n.lhs as AstNode | undefined)?.type === 'variable') names.add(String((n.lhs as AstNode).value));
  if (n.type === 'lambda') for (const arg of (n.arguments as AstNode[]) ?? []) names.add(String(arg.value));
  if (typeof n.focus === 'string') names.add(n.focus);
  if (typeof n.index === 'string') names.add(n.index);
  for (const value of Object.values(n)) declared(value, names);
}

function references(node: unknown, found: Array<{ name: string; position?: number; called: boolean }>, called = false): void {
  if (Array.isArray(node)) return node.forEach((n) => references(n, found));
  if (node === null || typeof node !== 'object') return;
  const n = node as AstNode;
  if (n.type === 'variable' && n.value !== '')
    found.push({ name: String(n.value), ...(n.position !== undefined && { position: n.position }), called });
  for (const [key, value] of Object.entries(n)) {
    if (n.type === 'lambda' && key === 'arguments') continue;
    if (n.type === 'bind' && key === 'lhs') continue;
    references(value, found, (n.type === 'function' || n.type === 'partial') && key === 'procedure');
  }
}

/** Fails start-up on a `$name` that neither JSONata, the adapter, the shared functions nor the expression defines. */
export function checkNames(expression: Expression, known: ReadonlySet<string>, tenantFile: string): void {
  const ast = (expression as Expression & { ast?: unknown }).ast;
  const local = new Set<string>();
  declared(ast, local);
  const found: Array<{ name: string; position?: number; called: boolean }> = [];
  references(ast, found);
  for (const ref of found) {
    if (local.has(ref.name) || known.has(ref.name) || isBuiltin(ref.name)) continue;
    const where =
      expression.source.file || (expression.source.origin && ref.position !== undefined)
        ? expression.source.at(ref.position, `$${ref.name}`)
        : `${tenantFile}: ${expression.source.at(ref.position)}`;
    throw new ConfigError(`${where}: ${ref.called ? 'unknown function' : 'unknown variable'} $${ref.name} (${expression.path})`);
  }
}

// ---------------------------------------------------------------- shared functions

const callers = new Map<number, SyncExpression>();

/** `$f($a0, …)`: calls a JSONata lambda from JavaScript with `arity` arguments. */
function callerOf(arity: number): SyncExpression {
  let caller = callers.get(arity);
  if (!caller) {
    caller = jsonata(`$f(${Array.from({ length: arity }, (_, i) => `$a${i}`).join(', ')})`);
    callers.set(arity, caller);
  }
  return caller;
}

/**
 * A shared function as the mappings call it: the JSONata lambda behind a wrapper that marks a
 * failure inside it with its source, so the error names the function's file and line rather
 * than the calling operation.
 */
export function sharedFunction(name: string, lambda: unknown, source: SourceText): unknown {
  const arity = ((lambda as { arguments?: unknown[] }).arguments ?? [null]).length;
  // JSONata gives a failure the position of the outermost call on its way up (each call site
  // overwrites it with the lambda's `position`): a lambda without one lets the inner place stand.
  if (lambda !== null && typeof lambda === 'object')
    Object.defineProperty(lambda, 'position', { get: () => undefined, set: () => undefined, configurable: true });
  const caller = callerOf(arity);
  const fn = (...args: unknown[]) => {
    const bindings: Record<string, unknown> = { f: lambda };
    args.slice(0, arity).forEach((arg, i) => (bindings[`a${i}`] = arg));
    try {
      return caller.evaluate(null, bindings);
    } catch (error) {
      const failure = error as JsonataFailure;
      if (failure && typeof failure === 'object' && !failure.mappingSource) failure.mappingSource = { source, name };
      throw error;
    }
  };
  Object.defineProperty(fn, 'length', { value: arity });
  return fn;
}

/**
 * Runs a mapping; `required` refuses an undefined result (the expression matched nothing).
 * JSONata's own error code and message are kept: they name the function or operator that failed.
 */
export function runMapping(
  expression: Expression,
  site: MappingSite,
  input: unknown,
  bindings: Record<string, unknown>,
  required = true,
): unknown {
  let result: unknown;
  try {
    result = expression.evaluate(input, bindings);
  } catch (error) {
    const failure = error as JsonataFailure;
    const { code, message, position, token } = failure ?? {};
    const inside = failure?.mappingSource;
    // Inline single expressions keep their JSON path alone; files get file:line:column.
    // Inline ones with a place in the tenant file: the path and the file's line and column.
    const place = (source: SourceText) =>
      source.file
        ? source.at(position, token)
        : source.origin && position !== undefined
          ? `${source.path} at ${source.at(position, token)}`
          : source.at(undefined);
    const where = inside ? `${expression.source.file ?? expression.path} → ${place(inside.source)}` : place(expression.source);
    throw new MappingError(site, where, `failed${code ? ` (${code})` : ''}: ${message ?? String(error)}`);
  }
  if (required && result === undefined)
    throw new MappingError(site, expression.source.at(undefined), "gave no value for the store's answer");
  return result;
}

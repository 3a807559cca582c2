/**
 * Three shortcuts through JSONata's evaluator (adapters/rest/jsonata.ts injects them) for the nodes
 * a store mapping is made of: `"field": name`, `a.b.c` and `$var.a.b` read members of one object
 * after another, `{"literal": …, …}` builds one object, and `$f(…)` calls a function. The library
 * runs each of those through its generic machinery: a member read makes three sequences and two
 * objects per step, an object constructor groups its single input by key (a group record per key,
 * a key list, a pair per value) and builds the result as a prototype-less object, which V8 keeps
 * in dictionary mode for every later read, and a call of a lambda whose body is itself a call
 * (`$amount := function($x) { $money($x, $c.currency) }`) builds a tail-call thunk, a closure
 * and three nested evaluations before it gets to the inner call. Each shortcut takes only the
 * case whose outcome it can give exactly as that machinery does (worked through below) and
 * answers MISS for anything else, which then goes the library's way.
 */

/** The library's node of an expression tree (its parser's output). */
interface Node {
  type: string;
  value?: unknown;
  steps?: Node[];
  lhs?: unknown;
  [key: string]: unknown;
}

interface Environment {
  lookup(name: string): unknown;
  isParallelCall?: boolean;
}

type Evaluate = (expr: Node, input: unknown, environment: Environment) => unknown;

/** "Not taken": the library evaluates the node itself. */
export const MISS: unique symbol = Symbol('jsonata shortcut not taken');

const PLAN = Symbol('jsonata shortcut plan');
/** A node whose every key is listed: no predicate, stage, group, focus, index or tuple binding on it. */
const bare = (node: unknown, keys: readonly string[]): node is Node =>
  typeof node === 'object' && node !== null && Object.keys(node).length === keys.length && keys.every((k) => k in node);
const LEAF = ['type', 'value', 'position'];

/** `a.b.c` or `$var.a.b`: the member names in order and the variable (undefined: the context). */
interface MemberPlan {
  variable?: string;
  names: string[];
}

function memberPlan(expr: Node): MemberPlan | null {
  if (!bare(expr, ['type', 'steps']) || !Array.isArray(expr.steps) || expr.steps.length === 0) return null;
  const [first, ...rest] = expr.steps;
  const variable = bare(first, LEAF) && first.type === 'variable' && typeof first.value === 'string' && first.value !== '';
  const steps = variable ? rest : expr.steps;
  if (steps.length === 0) return null;
  const names: string[] = [];
  for (const step of steps) {
    if (!bare(step, LEAF) || step.type !== 'name' || typeof step.value !== 'string') return null;
    names.push(step.value);
  }
  return variable ? { variable: first.value as string, names } : { names };
}

/** A key the shortcut may not set on a plain object, or that the library refuses (D1013). */
const RESERVED = new Set(['__proto__', '_jsonata_lambda', '_jsonata_function']);

/** `{"a": …, "b": …}` with distinct literal keys: the keys in the library's order and the value expressions. */
interface ObjectPlan {
  keys: string[];
  values: Node[];
}

function objectPlan(expr: Node): ObjectPlan | null {
  const pairs = expr.lhs;
  if (!Array.isArray(pairs)) return null;
  const byKey = new Map<string, Node>();
  for (const pair of pairs as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const [key, value] = pair as [unknown, Node];
    // A repeated key is the library's error D1009; a computed one is known only when evaluated.
    if (!bare(key, LEAF) || key.type !== 'string' || typeof key.value !== 'string') return null;
    if (RESERVED.has(key.value) || byKey.has(key.value)) return null;
    byKey.set(key.value, value);
  }
  // The library evaluates the values in the order of its group object's keys: integer-like keys first.
  const keys = Object.keys(Object.fromEntries([...byKey.keys()].map((k) => [k, true])));
  return { keys, values: keys.map((k) => byKey.get(k)!) };
}

function planOf<T>(expr: Node, make: (expr: Node) => T | null): T | null {
  const node = expr as Node & { [PLAN]?: T | null };
  let plan = node[PLAN];
  if (plan === undefined) {
    plan = make(expr);
    Object.defineProperty(node, PLAN, { value: plan });
  }
  return plan;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A path node of member names: `a.b` on an object, or `$var.a.b` when `$var` is an object. Each
 * step of the library maps the one object before it to a one-item sequence, so along the way it
 * gives undefined for a member an object does not own (or when the object is a function), and a
 * member that is not an object (null, an array to map over) goes the library's way. The last
 * member comes back itself when it is anything but a sequence (a plain array as the same array,
 * the last step's rule for a lone array); a sequence member goes the library's way.
 */
export function member(expr: Node, input: unknown, environment: Environment, isFunction: (value: unknown) => boolean): unknown {
  const plan = planOf(expr, memberPlan);
  if (plan === null) return MISS;
  let from = plan.variable === undefined ? input : environment.lookup(plan.variable);
  for (const name of plan.names) {
    if (!isRecord(from)) return MISS;
    if (!Object.prototype.hasOwnProperty.call(from, name) || isFunction(from)) return undefined;
    from = from[name];
  }
  return Array.isArray(from) && (from as { sequence?: unknown }).sequence === true ? MISS : from;
}

/**
 * An object constructor over one input (not a sequence): the library groups that input under each
 * key, then evaluates each key's value on it in key order, leaving out undefined values. The
 * result is a plain object with those members in that order.
 */
export function object(expr: Node, input: unknown, environment: Environment, evaluate: Evaluate): unknown {
  if (Array.isArray(input)) return MISS;
  const plan = planOf(expr, objectPlan);
  if (plan === null) return MISS;
  const result: Record<string, unknown> = {};
  for (let i = 0; i < plan.keys.length; i++) {
    environment.isParallelCall = i > 0;
    const value = evaluate(plan.values[i]!, input, environment);
    if (value !== undefined) result[plan.keys[i]!] = value;
  }
  return result;
}

/** The library's own functions the call shortcut runs (adapters/rest/jsonata.ts hands them over). */
export interface Library {
  evaluate: Evaluate;
  apply: (proc: unknown, args: unknown[], input: unknown, environment: Environment) => unknown;
  applyInner: (proc: unknown, args: unknown[], input: unknown, environment: Environment) => unknown;
  createFrame: (enclosing: unknown) => Environment & { bind(name: string, value: unknown): void };
  isFunction: (value: unknown) => boolean;
  isLambda: (value: unknown) => boolean;
  getFunctionArity: (value: unknown) => number;
}

/** `$name(…)`: the function's name and the argument expressions. */
interface CallPlan {
  name: string;
  args: Node[];
}

function callPlan(expr: Node): CallPlan | null {
  const procedure = expr.procedure;
  if (!bare(procedure, LEAF) || procedure.type !== 'variable' || typeof procedure.value !== 'string' || procedure.value === '') return null;
  return Array.isArray(expr.arguments) ? { name: procedure.value, args: expr.arguments as Node[] } : null;
}

/** A tail call as the parser leaves it for the library's trampoline: a thunk lambda around a `function` node. */
interface TailCall {
  procedure: Node;
  arguments: Node[];
}

function tailCallPlan(body: Node): TailCall | null {
  if (!bare(body, ['type', 'thunk', 'arguments', 'position', 'body']) || body.type !== 'lambda' || body.thunk !== true) return null;
  if (!Array.isArray(body.arguments) || body.arguments.length !== 0) return null;
  const call = body.body as Node | undefined;
  if (typeof call !== 'object' || call === null || call.type !== 'function') return null;
  if (typeof call.procedure !== 'object' || call.procedure === null || !Array.isArray(call.arguments)) return null;
  return { procedure: call.procedure as Node, arguments: call.arguments as Node[] };
}

interface Lambda {
  _jsonata_lambda: true;
  input: unknown;
  environment: unknown;
  arguments: Array<{ value: string }>;
  signature?: unknown;
  body: unknown;
}

interface Failure {
  position?: unknown;
  token?: unknown;
}

/**
 * `$name(args)`, as the library's evaluateFunction gives it: the function looked up, the
 * arguments evaluated in order (a function among them wrapped in a closure that applies it), the
 * function (an object) marked with the call's name and position, applied, and a failure given
 * the call's position and name where it has none. The one step left out: a lambda without a
 * signature whose body is a tail call is applied by binding its parameters in a new frame and
 * going straight into the library's trampoline loop with the call in its body, where the library
 * first evaluates that body into a thunk (a procedure object and a closure that nothing else
 * sees) and then unpacks it in the same loop. Anything else is applied by the library's `apply`.
 * A name bound to a sequence (which the library's variable lookup would unwrap) goes its way.
 */
export function call(expr: Node, input: unknown, environment: Environment, library: Library): unknown {
  const plan = planOf(expr, callPlan);
  if (plan === null) return MISS;
  const proc = environment.lookup(plan.name);
  if (Array.isArray(proc) && (proc as { sequence?: unknown }).sequence === true) return MISS;
  const args: unknown[] = [];
  for (const node of plan.args) {
    const arg = library.evaluate(node, input, environment);
    if (library.isFunction(arg)) {
      const closure = (...params: unknown[]) => library.apply(arg, params, null, environment);
      closure.arity = library.getFunctionArity(arg);
      args.push(closure);
    } else {
      args.push(arg);
    }
  }
  try {
    if (typeof proc === 'object') {
      (proc as Failure).token = plan.name;
      (proc as Failure).position = expr.position;
    }
    const tail = tailCallOf(proc, library);
    if (tail === null) return library.apply(proc, args, input, environment);
    const lambda = proc as Lambda;
    const frame = library.createFrame(lambda.environment);
    for (let i = 0; i < lambda.arguments.length; i++) frame.bind(lambda.arguments[i]!.value, args[i]);
    return trampoline(tail, lambda.input, frame, input, environment, library);
  } catch (error) {
    if (!(error as Failure).position) (error as Failure).position = expr.position;
    if (!(error as Failure).token) (error as Failure).token = plan.name;
    throw error;
  }
}

/** The tail call in the body of a lambda the library would apply by evaluating that body into a thunk. */
function tailCallOf(proc: unknown, library: Library): TailCall | null {
  if (!library.isLambda(proc)) return null;
  const { signature, body } = proc as Lambda;
  if (signature !== undefined || typeof body !== 'object' || body === null) return null;
  return planOf(body as Node, tailCallPlan);
}

/** The library's trampoline (its `apply` loop), from a tail call not yet made into a thunk. */
function trampoline(first: TailCall, from: unknown, frame: Environment, input: unknown, environment: Environment, library: Library) {
  let call = first;
  let callInput = from;
  let callEnvironment = frame;
  for (;;) {
    const next = library.evaluate(call.procedure, callInput, callEnvironment) as Failure;
    if (call.procedure.type === 'variable') next.token = call.procedure.value;
    next.position = call.procedure.position;
    const args: unknown[] = [];
    for (const node of call.arguments) args.push(library.evaluate(node, callInput, callEnvironment));
    const result = library.applyInner(next, args, input, environment) as { thunk?: unknown } & Partial<Lambda> & { body?: Node };
    if (!(library.isLambda(result) && result.thunk === true)) return result;
    call = result.body as unknown as TailCall;
    callInput = result.input;
    callEnvironment = result.environment as Environment;
  }
}

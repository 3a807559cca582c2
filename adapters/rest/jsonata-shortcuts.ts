/**
 * Two shortcuts through JSONata's evaluator (adapters/rest/jsonata.ts injects them) for the nodes
 * a store mapping is made of: `"field": name`, `a.b.c` and `$var.a.b` read members of one object
 * after another, and `{"literal": …, …}` builds one object. The library runs each of those
 * through its generic machinery: a member read makes three sequences and two objects per step,
 * an object constructor groups its single input by key (a group record per key, a key list, a
 * pair per value) and builds the result as a prototype-less object, which V8 keeps in dictionary
 * mode for every later read. Each shortcut takes only the case whose outcome it can give exactly
 * as that machinery does (worked through below) and answers MISS for anything else, which then
 * goes the library's way.
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

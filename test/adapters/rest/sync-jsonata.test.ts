/**
 * The REST adapter evaluates mappings with the installed JSONata made synchronous and without its
 * debugger hooks (adapters/rest/jsonata.ts): it must give what the library itself gives, value for
 * value and error code for error code, across the language a tenant's mappings use.
 */
import asyncJsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { jsonata, rewrite, withShortcuts } from '../../../adapters/rest/jsonata.js';

const cart = {
  cart_id: 'c1',
  currency: 'USD',
  lines: [
    { line_ref: 'a', sku: 'ROSE', qty: 2, price: '35.00', ships: true, tags: ['red', 'gift'] },
    { line_ref: 'b', sku: 'CARD', qty: 1, price: '4.50', ships: false, tags: [] },
    { line_ref: 'c', sku: 'VASE', qty: 3, price: '12.25', ships: true, tags: ['glass'] },
  ],
  coupons: [
    { code: 'SPRING', state: 'applied' },
    { code: 'OLD', state: 'refused', why: 'expired' },
  ],
  meta: { page: 1, total_pages: 3 },
  shipping: { carrier: { name: 'Post', tags: ['slow'], rate: { amount: '4.50' } }, rates: [{ id: 'r1' }, { id: 'r2' }], none: null },
};

const EXPRESSIONS = [
  '$',
  'lines.sku',
  'lines[ships].line_ref',
  '[lines[qty > 1].{"id": line_ref, "n": qty}]',
  'lines{sku: qty}',
  '$sum(lines.(qty * $number(price)))',
  '$count(lines[ships]) > 0 and meta.page < meta.total_pages',
  'lines^(>qty).sku',
  '$map(lines, function($l, $i) { $l.sku & "#" & $i })',
  '$filter(lines, function($l) { $l.qty >= 2 }).line_ref',
  '$reduce(lines, function($acc, $l) { $acc + $l.qty }, 0)',
  '$sift(lines[0], function($v, $k) { $k != "tags" })',
  '$each(meta, function($v, $k) { $k & "=" & $v })',
  'coupons.$lookup({"applied": "ok", "refused": "no"}, state)',
  '($total := function($x) { $x.qty * 2 }; [lines.$total($)])',
  'lines#$i[$i > 0].sku',
  'lines@$l.tags@$t.{"line": $l.line_ref, "tag": $t}',
  '$replace(lines[0].sku, /O/, "0")',
  '$match("ROSE-12", /(\\w+)-(\\d+)/).groups',
  'lines[0] ~> | $ | {"qty": 9}, ["tags"] |',
  '$join(lines.sku, ",") & " " & $uppercase(currency)',
  '$string(lines[1]) ',
  'coupons[state = "refused"].{"code": code, "reason": why}',
  '$exists(missing) ? "yes" : "no"',
  '[1..5][$ % 2 = 1]',
  '$sort(lines, function($a, $b) { $a.price > $b.price }).sku',
];

/** The cases the shortcuts (adapters/rest/jsonata-shortcuts.ts) take or must leave to the library. */
const SHORTCUT_CASES = [
  'cart_id',
  'missing',
  'meta.page',
  'lines',
  'lines[0].tags',
  'lines[1].tags',
  'coupons[1].why',
  '($c := meta; $c.total_pages)',
  '($c := meta; $c.missing)',
  '($l := lines; $l.sku)',
  '($s := lines.sku; $s.x)',
  '($f := function($x) { $x }; $f.body)',
  '$$.currency',
  '$$.meta.page',
  'shipping.carrier.name',
  'shipping.carrier.rate.amount',
  'shipping.carrier.tags',
  'shipping.rates.id',
  'shipping.none.name',
  'shipping.missing.name',
  'shipping.carrier.missing',
  '($s := shipping; $s.carrier.rate.amount)',
  '($s := shipping; $s.carrier.missing.name)',
  '($s := shipping.rates; $s.id.x)',
  '($f := function($x) { $x }; $f.body.type)',
  '($f := function($x) { $x }; {"f": $f}.f.body)',
  'lines.{"ref": line_ref, "none": missing, "tags": tags}',
  '{"b": 1, "10": 2, "a": 3, "2": 4}',
  '$string({"b": 1, "10": 2, "a": currency})',
  '$keys({"z": 1, "y": null, "x": missing})',
  '{"toString": 1, "constructor": cart_id, "hasOwnProperty": 3}',
  '{"a": 1, "a": 2}',
  '{"__proto__": {"polluted": true}, "b": 1}',
  '{"_jsonata_lambda": true}',
  '{"k": 1}.k',
  '{"k": [1]}.k',
  '$merge([{"a": 1}, {"b": lines[0].qty}])',
  '$each({"a": 1, "b": 2}, function($v, $k) { $k & $v })',
  '$sift({"a": 1, "b": null}, function($v) { $v != null })',
  '[lines.{"n": qty}][0]',
  '{"one": lines[0]}.one.sku',
  'lines.({"sku": sku}).sku',
  'lines.{"cart": %.cart_id}',
];

/** Calls the third shortcut takes (a lambda whose body is a call) or leaves to the library, with the functions a tenant binds. */
const CALL_CASES = [
  '($amount := function($x) { $money($x, currency) }; [lines.$amount(price)])',
  '($amount := function($x) { $money($x, $$.currency) }; lines.{"unit": $amount(price), "none": $amount(missing)})',
  '($money(lines[0].price, currency))',
  '($f := function($x, $y) { $join([$string($x), $string($y)], "/") }; [$f(1), $f(1, 2, 3), $f()])',
  '($f := function($x) { $me($x) }; lines.$f(1))',
  '($f := function($x) { $string($) }; lines[0].$f(1))',
  '($f := function($x) { $join([$x, $.cart_id]) }; lines[0].($f(sku)))',
  '($add := function($a, $b) { $sum([$a, $b]) }; $inc := $add(?, 1); [$inc(2), $add(3, ?)(4)])',
  '($sub := $substring(?, 1, 2); $sub(cart_id & "xyz"))',
  '($h := function($x) { $x * 2 }; $g := function($x) { $h($x) }; $f := function($x) { $g($x + 1) }; $f(3))',
  '($ping := function($n) { $pong($n) }; $pong := function($n) { $n <= 0 ? "done" : $ping($n - 1) }; $ping(5000))',
  '($twice := function($g) { $g(2) * 2 }; $twice(function($x) { $x * 3 }))',
  '($f := function($g, $x) { $g($x) }; $f($uppercase, cart_id))',
  '($f := function($x) { $string($x) }; $r := $f($y := 2); $r & $y)',
  '($f := function($x)<n:n> { $abs($x) }; $f(-2))',
  '($f := function($x)<n:n> { $abs($x) }; $f("a"))',
  '($f := function($x) { $fail($x) }; $f(1))',
  '($f := function($x) { $fail($x) }; [$money("1.00"), $f(1)])',
  '($f := function($x) { $money($x) }; $once := $f("1.00"); $money("bad"))',
  '($f := function($x) { $money($x) }; [$money("1.00"), $f("bad")])',
  '($f := function($x) { $nothing($x) }; $f(1))',
  '($f := function($x) { $none($x) }; $f(1))',
  '($f := function($x) { $money($x.a.b) }; $f("1.00"))',
  '$nothing(1)',
  '$none(1)',
  '$string(1, 2, 3)',
  '($s := lines.sku; $s(1))',
  '$money(lines.price)',
  '$fail()',
  '($f := 1; $f(2))',
];

/** Fresh functions per run: the library marks a called function with the call's name and position. */
const callBindings = () => ({
  money: (value: unknown, currency = 'USD') => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !/^\d+\.\d\d$/.test(value)) throw new Error(`not money: ${JSON.stringify(value)} ${currency}`);
    return Number(value.replace('.', ''));
  },
  me: function (this: { sku?: unknown } | undefined) {
    return this?.sku;
  },
  fail: (value: unknown) => {
    throw new Error(`failed on ${String(value)}`);
  },
  none: null,
});

const FAILURES = ['lines.qty + "x"', '$number("abc")', '$undefinedFunction()', 'lines[0].sku.$substring()', '$error("refused")'];

describe('JSONata made synchronous', () => {
  it.each(EXPRESSIONS)('gives what the library gives: %s', async (expression) => {
    const expected: unknown = await asyncJsonata(expression).evaluate(cart);
    const got = jsonata(expression).evaluate(cart);
    expect(got).not.toBeInstanceOf(Promise);
    expect(got).toEqual(expected);
  });

  it.each(SHORTCUT_CASES)('takes a shortcut only where the library gives the same: %s', async (expression) => {
    const expected = await asyncJsonata(expression)
      .evaluate(cart)
      .then(
        (value: unknown) => ({ value: JSON.stringify(value) }),
        (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
      );
    let got: unknown;
    try {
      got = { value: JSON.stringify(jsonata(expression).evaluate(cart)) };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      got = { code, message };
    }
    expect(got).toEqual(expected);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each(['{"n": $count($), "first": $[0].sku}', 'sku', '{"skus": sku}', '$.{"ref": line_ref}'])(
    'gives what the library gives on an array input: %s',
    async (expression) => {
      const expected: unknown = await asyncJsonata(expression).evaluate(cart.lines);
      expect(JSON.stringify(jsonata(expression).evaluate(cart.lines))).toBe(JSON.stringify(expected));
    },
  );

  it.each([
    ['$t.a.b', { t: { a: undefined } }],
    ['$t.a.b', { t: { a: { b: undefined } } }],
    ['$t.a.b.c', { t: { a: { b: [{ c: 1 }, { c: 2 }] } } }],
    ['$t.a.b', { t: Object.assign(Object.create({ a: { b: 1 } }) as object, { own: 1 }) }],
  ])('reads members of bound values as the library does: %s', async (expression, bindings) => {
    const expected: unknown = await asyncJsonata(expression).evaluate({}, bindings);
    expect(JSON.stringify(jsonata(expression).evaluate({}, bindings))).toBe(JSON.stringify(expected));
  });

  it('keeps a member that is an array as that same array, as the library does', () => {
    const tags = cart.lines[0]!.tags;
    expect(jsonata('lines[0].tags').evaluate(cart)).toEqual(tags);
    expect(jsonata('$t.list').evaluate({}, { t: { list: tags } })).toBe(tags);
    expect(jsonata('$t.on.list').evaluate({}, { t: { on: { list: tags } } })).toBe(tags);
  });

  it.each(CALL_CASES)('calls functions as the library does: %s', async (expression) => {
    const failure = (error: unknown) => {
      const { code, message, position, token } = (error ?? {}) as { code?: string; message?: string; position?: number; token?: string };
      return { code, message, position, token };
    };
    const expected = await asyncJsonata(expression)
      .evaluate(cart, callBindings())
      .then((value: unknown) => ({ value: JSON.stringify(value) }), failure);
    let got: unknown;
    try {
      got = { value: JSON.stringify(jsonata(expression).evaluate(cart, callBindings())) };
    } catch (error) {
      got = failure(error);
    }
    expect(got).toEqual(expected);
  });

  it.each(FAILURES)('fails as the library fails: %s', async (expression) => {
    const expected = await asyncJsonata(expression)
      .evaluate(cart)
      .then(
        () => undefined,
        (error: { code?: string; message?: string; position?: number }) => error,
      );
    expect(expected?.code).toBeDefined();
    expect(() => jsonata(expression).evaluate(cart)).toThrow(
      expect.objectContaining({ code: expected!.code, message: expected!.message, position: expected!.position }),
    );
  });

  it('refuses to load a library it cannot rewrite rather than leave promises or hooks in it', () => {
    expect(rewrite('const f = async function() { return 1 }; const g = x.then(async\nfunction() {});')).not.toMatch(/async|await/);
    expect(rewrite("var cb = environment.lookup(Symbol.for('jsonata.__evaluate_entry'));")).toBe('var cb = undefined;');
    const unknown = [
      'for await (const chunk of stream) {}',
      'class A { async run() { return 1; } }',
      'async function* lines() {}',
      'var cb = environment.lookup(Symbol.for("jsonata.__evaluate_entry"));',
    ];
    for (const shape of unknown) expect(() => rewrite(shape)).toThrow(/cannot be made synchronous/);
    // A release whose evaluator no longer has the shortcuts' places fails at start-up too.
    expect(() => withShortcuts('function evaluate(expr, input, env) {\n}')).toThrow(/place for a shortcut .* 0 times/);
  });
});

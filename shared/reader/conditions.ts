import jsep, { type Expression } from 'jsep';

/**
 * Adaptive content conditions (site spaces, sections, `if` blocks, header links), evaluated
 * against a visitor's claims. GitBook's conditions are JavaScript expressions; they are parsed
 * by jsep (a maintained JavaScript expression parser) and never run as code: this evaluator
 * walks the parsed tree and knows only
 *   property paths (own properties of the claims only), string/number/boolean/null literals,
 *   arrays, `! -`, `== != === !== < <= > >=`, `&& ||`, `a ? b : c`, and the calls
 *   `.includes(x)` (arrays, strings), `.startsWith(x)`, `.endsWith(x)` (strings).
 * e.g. `visitor.claims.plan == 'pro' && visitor.claims.products.includes('sso')`.
 * Anything else (other calls, `this`, assignments, sequences, a parse error) makes the whole
 * condition false: content behind a condition stays hidden (fail closed).
 */

/** Conditions are stored up to 1,024 characters (conditionExpression); nesting is bounded too. */
const MAX_SOURCE = 1024;
const MAX_DEPTH = 64;

class Unsupported extends Error {}

/** An own property of a claims object (never an inherited one: no `constructor`, `__proto__`...). */
function property(target: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') throw new Unsupported('key');
  const name = String(key);
  if (typeof target === 'string') return name === 'length' ? target.length : undefined;
  if (target === null || typeof target !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(target, name) ? (target as Record<string, unknown>)[name] : undefined;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

function compare(op: string, a: unknown, b: unknown): boolean {
  // Ordering only between two numbers or two strings: no coercion of objects.
  if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))) return false;
  switch (op) {
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    default: return a >= b;
  }
}

function call(node: Expression & { callee: Expression; arguments: Expression[] }, context: Record<string, unknown>, depth: number): unknown {
  const callee = node.callee;
  if (callee.type !== 'MemberExpression' || callee.computed) throw new Unsupported('call');
  const method = (callee.property as Expression & { name?: string }).name;
  const target = evaluate(callee.object as Expression, context, depth + 1);
  const args = node.arguments.map((a) => evaluate(a, context, depth + 1));
  if (args.length !== 1) throw new Unsupported('arguments');
  const [arg] = args;
  if (method === 'includes' && Array.isArray(target)) return target.some((item) => same(item, arg));
  if (typeof target !== 'string' || typeof arg !== 'string') return false;
  if (method === 'includes') return target.includes(arg);
  if (method === 'startsWith') return target.startsWith(arg);
  if (method === 'endsWith') return target.endsWith(arg);
  throw new Unsupported('method');
}

function evaluate(node: Expression, context: Record<string, unknown>, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Unsupported('depth');
  const n = node as Expression & Record<string, unknown>;
  switch (node.type) {
    case 'Literal': {
      const value = n.value;
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
      throw new Unsupported('literal');
    }
    case 'Identifier':
      return n.name === 'undefined' ? undefined : property(context, n.name);
    case 'MemberExpression': {
      const target = evaluate(n.object as Expression, context, depth + 1);
      const key = n.computed ? evaluate(n.property as Expression, context, depth + 1) : (n.property as { name: string }).name;
      return property(target, key);
    }
    case 'ArrayExpression':
      return (n.elements as (Expression | null)[]).map((e) => (e ? evaluate(e, context, depth + 1) : undefined));
    case 'UnaryExpression': {
      const value = evaluate(n.argument as Expression, context, depth + 1);
      if (n.operator === '!') return !value;
      if (n.operator === '-' && typeof value === 'number') return -value;
      throw new Unsupported('unary');
    }
    case 'ConditionalExpression':
      return evaluate(n.test as Expression, context, depth + 1)
        ? evaluate(n.consequent as Expression, context, depth + 1)
        : evaluate(n.alternate as Expression, context, depth + 1);
    case 'CallExpression':
      return call(n as Expression & { callee: Expression; arguments: Expression[] }, context, depth);
    case 'BinaryExpression': {
      const op = n.operator as string;
      const left = evaluate(n.left as Expression, context, depth + 1);
      if (op === '&&') return left ? evaluate(n.right as Expression, context, depth + 1) : left;
      if (op === '||') return left ? left : evaluate(n.right as Expression, context, depth + 1);
      const right = evaluate(n.right as Expression, context, depth + 1);
      switch (op) {
        case '==': case '===': return same(left, right);
        case '!=': case '!==': return !same(left, right);
        case '<': case '<=': case '>': case '>=': return compare(op, left, right);
        default: throw new Unsupported('operator');
      }
    }
    default:
      throw new Unsupported(node.type);
  }
}

export function evaluateCondition(source: string, context: Record<string, unknown>): boolean {
  if (typeof source !== 'string' || source.length > MAX_SOURCE || source.trim() === '') return false;
  try {
    return Boolean(evaluate(jsep(source), context, 0));
  } catch {
    return false;
  }
}

/** The context conditions see: `visitor.claims` (signed claims plus `unsigned`). */
export function visitorContext(claims: Record<string, unknown>): Record<string, unknown> {
  return { visitor: { claims: { unsigned: {}, ...claims } } };
}

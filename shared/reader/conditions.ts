/**
 * Adaptive content conditions (site spaces and sections, spec 2.12), evaluated against a
 * visitor's claims. A small expression language, enough for what authors write:
 *   visitor.claims.plan == 'pro' && (visitor.claims.unsigned.beta == true || !visitor.claims.trial)
 * Paths, string/number/boolean/null literals, == != === !== < <= > >=, && || !, parentheses.
 * Anything it cannot parse is false: content behind a condition stays hidden (fail closed).
 */

type Token = { kind: 'op' | 'path' | 'literal'; value: unknown };

const TOKEN = /\s*(?:(===|!==|==|!=|<=|>=|&&|\|\||[()!<>])|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*))/y;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let rest = source;
  while (rest.trim() !== '') {
    TOKEN.lastIndex = 0;
    const m = TOKEN.exec(rest);
    if (!m) throw new Error(`Unexpected input: ${rest}`);
    rest = rest.slice(m[0].length);
    if (m[1]) tokens.push({ kind: 'op', value: m[1] });
    else if (m[2]) tokens.push({ kind: 'literal', value: m[2].slice(1, -1).replace(/\\(.)/g, '$1') });
    else if (m[3]) tokens.push({ kind: 'literal', value: Number(m[3]) });
    else if (m[4] === 'true' || m[4] === 'false') tokens.push({ kind: 'literal', value: m[4] === 'true' });
    else if (m[4] === 'null' || m[4] === 'undefined') tokens.push({ kind: 'literal', value: null });
    else tokens.push({ kind: 'path', value: m[4] });
  }
  return tokens;
}

function lookup(context: Record<string, unknown>, path: string): unknown {
  let current: unknown = context;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function evaluateCondition(source: string, context: Record<string, unknown>): boolean {
  try {
    const tokens = tokenize(source);
    let i = 0;
    const peek = () => tokens[i];
    const take = (op?: string) => {
      const t = tokens[i];
      if (!t || (op !== undefined && !(t.kind === 'op' && t.value === op))) throw new Error('Unexpected token');
      i++;
      return t;
    };
    const primary = (): unknown => {
      const t = take();
      if (t.kind === 'literal') return t.value;
      if (t.kind === 'path') return lookup(context, String(t.value));
      if (t.value === '(') {
        const value = or();
        take(')');
        return value;
      }
      if (t.value === '!') return !primary();
      throw new Error('Unexpected operator');
    };
    const comparison = (): unknown => {
      const left = primary();
      const t = peek();
      if (!t || t.kind !== 'op' || !['==', '!=', '===', '!==', '<', '<=', '>', '>='].includes(String(t.value))) return left;
      i++;
      const right = primary();
      const l = left ?? null;
      const r = right ?? null;
      switch (t.value) {
        case '==': case '===': return l === r;
        case '!=': case '!==': return l !== r;
        case '<': return (l as number) < (r as number);
        case '<=': return (l as number) <= (r as number);
        case '>': return (l as number) > (r as number);
        default: return (l as number) >= (r as number);
      }
    };
    const and = (): unknown => {
      let value = comparison();
      while (peek()?.value === '&&') {
        i++;
        const right = comparison();
        value = Boolean(value) && Boolean(right);
      }
      return value;
    };
    const or = (): unknown => {
      let value = and();
      while (peek()?.value === '||') {
        i++;
        const right = and();
        value = Boolean(value) || Boolean(right);
      }
      return value;
    };
    const result = or();
    if (i !== tokens.length) return false;
    return Boolean(result);
  } catch {
    return false;
  }
}

/** The context conditions see: `visitor.claims` (signed claims plus `unsigned`). */
export function visitorContext(claims: Record<string, unknown>): Record<string, unknown> {
  return { visitor: { claims: { unsigned: {}, ...claims } } };
}

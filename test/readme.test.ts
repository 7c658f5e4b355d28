import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { useTestApi, newOrg } from './support/api.ts';
import { operations } from '../functions/catalogue.ts';
import { isImplemented } from '../shared/http/route.ts';
import { operationTable, withOperationTable } from '../shared/http/readme-table.ts';

/**
 * The README's operation table must stay true: generated from the declarations (one row
 * per operation), and "done" exactly for the operations that do not answer 501.
 */
const api = useTestApi();

const readme = () => readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function readmeRows(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of readme().split('\n')) {
    const m = /^\| [\d.]+ \| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| \w+ \| [\w-]+ \| (done|not yet)/.exec(line);
    if (m) rows.set(`${m[1]} ${m[2]}`, m[3]!);
  }
  return rows;
}

describe('README operation table', () => {
  it('is the table generated from the declarations (npm run readme:operations)', () => {
    // useTestApi() built every group app, so isImplemented knows each operation's handler.
    const current = readme();
    expect(withOperationTable(current, operationTable(operations, isImplemented))).toBe(current);
  });

  it('lists every operation once, with the spec count', () => {
    const rows = readmeRows();
    expect(rows.size).toBe(operations.length);
    for (const op of operations) expect(rows.has(`${op.method} /v1${op.path}`), `${op.method} ${op.path}`).toBe(true);
    expect(operations.filter((o) => o.inSpec)).toHaveLength(140);
  });

  it('has no operation rows outside the generated block (a stale copy once followed it)', () => {
    const text = readme();
    const outside = text.slice(0, text.indexOf('<!-- operations:start')) + text.slice(text.indexOf('<!-- operations:end'));
    expect(outside.split('\n').filter((line) => /^\| [\d.]+ \| (GET|POST|PUT|PATCH|DELETE) \|/.test(line))).toEqual([]);
  });

  it('says "done" exactly for the operations that are implemented', async () => {
    const rows = readmeRows();
    const org = await newOrg();
    const wrong: string[] = [];
    for (const op of operations) {
      const path = op.path.replace(/\{organizationId\}/g, org.id).replace(/\{[^}]+\}/g, 'probe');
      const res = await api.request(op.method, path, { token: org.admin.token, ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} }) });
      const implemented = res.status !== 501;
      const documented = rows.get(`${op.method} /v1${op.path}`) === 'done';
      if (implemented !== documented) wrong.push(`${op.method} ${op.path}: README says ${documented ? 'done' : 'not yet'}, server answers ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });
});

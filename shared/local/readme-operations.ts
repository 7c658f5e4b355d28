import { readFileSync, writeFileSync } from 'node:fs';
import { operations } from '../../functions/catalogue.ts';
import { isImplemented } from '../http/route.ts';
import { operationTable, withOperationTable } from '../http/readme-table.ts';
// Building every group's app registers the handlers, which tells implemented from not yet.
import './groups.ts';

/** `npm run readme:operations`: rewrites the README's operation table from the declarations. */
const file = new URL('../../README.md', import.meta.url);
const readme = readFileSync(file, 'utf8');
const updated = withOperationTable(readme, operationTable(operations, isImplemented));
if (updated !== readme) writeFileSync(file, updated);
console.log(updated === readme ? 'README.md operation table is up to date' : `README.md operation table rewritten (${operations.length} operations)`);

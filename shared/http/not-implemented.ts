import { operations, toHonoPath, type GroupName } from './operations.ts';
import type { GroupApp } from './group-app.ts';
import { notImplemented } from './errors.ts';

/**
 * Registers every operation of the group with a 501 JSON answer. Call it after the
 * group's real routes: Hono answers with the first matching route, so implemented
 * operations win and the route table stays complete.
 */
export function answerRemainingWith501(app: GroupApp, group: GroupName): void {
  for (const op of operations) {
    if (op.group !== group) continue;
    app.on(op.method, toHonoPath(op.path), () => {
      throw notImplemented(`${op.method} /v1${op.path} (${op.operationId}) is not implemented yet`);
    });
  }
}

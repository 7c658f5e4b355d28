import { appendFileSync } from 'node:fs';
import { checkPublicContract } from './public-contract.ts';
import { contractExceptions, publicModelView } from './contract-exceptions.ts';
import { checkOwnContract } from './own-contract.ts';

/**
 * The contract hook of every HTTP test (test/support/api.ts). Each answer must
 * - match the service's own description (own-contract.ts: the declared operation, status
 *   and response schema, the shared error shape), with no exception;
 * - have a status the public description documents for its operation and a JSON body that
 *   validates against it (error bodies included, where documented), except for the
 *   spec-wins cases listed in contract-exceptions.ts.
 * A violation throws from `api.request()`, so the test making the call fails at that line.
 * `CONTRACT_REPORT=<file>` records violations there instead (to survey a whole run).
 */
export function contractViolations(method: string, path: string, status: number, body: unknown): string[] {
  // Documents' extension blocks are checked as their public stand-ins (contract-exceptions.ts).
  const result = checkPublicContract(method, path, status, publicModelView(body));
  if (!result.template) return [];
  const operation = `${method.toUpperCase()} ${result.template}`;
  const messages = [...result.errors];
  if (!result.documentedStatuses.includes(String(status)) && !result.documentedStatuses.includes('default') && status < 400) {
    messages.unshift(`status ${status} is not documented (${result.documentedStatuses.join(', ')})`);
  }
  return messages
    .filter((message) => !contractExceptions.some((e) =>
      (e.operation === undefined || e.operation === operation)
      && (e.status === undefined || e.status === status)
      && (e.error === undefined || e.error.test(message))))
    .map((message) => `${operation} ${status}: ${message}`);
}

export function assertContract(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  // Only JSON answers have a documented body shape; empty answers (204) are checked for status alone.
  const json = body === undefined || /\bjson\b/.test(contentType ?? '');
  if (!json) return;
  const own = checkOwnContract(method, path, status, body);
  const violations = [
    ...own.errors.map((error) => `${own.operation} ${status} (own description): ${error}`),
    ...contractViolations(method, path, status, body),
  ];
  if (!violations.length) return;
  const report = process.env.CONTRACT_REPORT;
  if (report) {
    appendFileSync(report, `${violations.map((v) => `${v}\t${path}`).join('\n')}\n`);
    return;
  }
  throw new Error(`Answer violates the service's contract:\n${violations.join('\n')}\nbody: ${JSON.stringify(body)?.slice(0, 2000)}`);
}

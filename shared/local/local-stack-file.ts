import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Where `npm start` leaves the endpoints of its embedded emulators, so the admin CLI in
 * another terminal talks to the same in-memory stack without configuration.
 */
const file = resolve(process.env.LOCAL_STACK_FILE ?? '.data/local-stack.json');

export interface LocalStackInfo {
  dynamodbEndpoint: string;
  awsEndpoint: string;
  tableName: string;
  pid: number;
}

export function writeLocalStackInfo(info: LocalStackInfo): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(info, null, 2));
}

export function readLocalStackInfo(): LocalStackInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as LocalStackInfo;
    process.kill(info.pid, 0); // still running?
    return info;
  } catch {
    return undefined;
  }
}

export function removeLocalStackInfo(): void {
  rmSync(file, { force: true });
}

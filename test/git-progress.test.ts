import { beforeAll, describe, expect, it } from 'vitest';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { createRepo, pngFile, useGitServer } from './support/git-server.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { db } from '../shared/db/client.ts';
import { s3, sqs } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { logger } from '../shared/observability/logger.ts';
import { progressStep } from '../shared/git/progress.ts';
import { handler as gitWorker } from '../functions/workers/git/handler.ts';
import { gitOperationEntity } from '../shared/db/entities/git-info.ts';

const api = useTestApi();
const server = useGitServer();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Git progress');
});

/** 300 pages in 10 folders listed in SUMMARY, one reusable content, 60 assets the pages link to. */
function repository(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {
    'README.md': '# Home\n\n{% include ".gitbook/includes/note.md" %}\n',
    '.gitbook/includes/note.md': '# Note\n\nShared text.\n',
  };
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  for (let n = 0; n < 60; n++) files[`.gitbook/assets/a-${n}.png`] = pngFile(n + 1, 3);
  for (let s = 0; s < 10; s++) {
    for (let p = s === 0 ? 1 : 0; p < 30; p++) {
      const path = `part-${s}/page-${p}.md`;
      files[path] = `# Page ${s}.${p}\n\nSome text of page ${s}.${p}.\n\n![Figure](../.gitbook/assets/a-${(s * 30 + p) % 60}.png)\n`;
      summary.push(`* [Page ${s}.${p}](${path})`);
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

const sizeOf = (value: string | Uint8Array) => (typeof value === 'string' ? Buffer.byteLength(value) : value.length);

type Progress = { pagesDone: number; pagesTotal: number; filesDone: number; filesTotal: number; bytes: number };

/** The progress-only writes of one space's operation records, as the worker sends them to DynamoDB. */
function watchProgressWrites(spaceId: string) {
  const writes: Progress[] = [];
  // The key of any operation record of the space: its partition, and its sort key prefix.
  const operations = gitOperationEntity.key({ spaceId, operationId: '' });
  db().middlewareStack.add((next, context) => async (args) => {
    const input = args.input as {
      Key?: { pk?: string; sk?: string }; UpdateExpression?: string;
      ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown>;
    };
    const names = Object.entries(input.ExpressionAttributeNames ?? {});
    const progressName = names.find(([, attr]) => attr === 'progress')?.[0];
    if (/^Update(Item)?Command$/.test(context.commandName ?? '') && input.Key?.pk === operations.pk && input.Key.sk?.startsWith(operations.sk)
      && progressName && !names.some(([, attr]) => attr === 'status')) {
      // The value placeholder SET to the progress attribute, whatever the placeholders are called.
      const placeholder = new RegExp(`${progressName} = (:\\w+)`).exec(input.UpdateExpression ?? '')?.[1];
      writes.push(input.ExpressionAttributeValues![placeholder ?? ':progress'] as Progress);
    }
    return next(args);
  }, { step: 'initialize', name: 'testWatchProgress' });
  return { writes, stop: () => db().middlewareStack.remove('testWatchProgress') };
}

describe('git progress', () => {
  it('shows pages, files and bytes while an import runs, with bounded writes, and the totals when it is done', async () => {
    const files = repository();
    const name = `progress-${Date.now()}`;
    await createRepo(server, name, files);
    const spaceId = (await createSpace(api, org)).id;
    const watch = watchProgressWrites(spaceId);
    // A slower store (20 ms a put) so that a poller sees the job between its writes.
    s3().middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'PutObjectCommand') await new Promise((resolve) => setTimeout(resolve, 20));
      return next(args);
    }, { step: 'initialize', name: 'testSlowPuts' });

    const res = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } });
    expect(res.status).toBe(204);
    const seen: Progress[] = [];
    const stages: string[] = [];
    let finished = false;
    const started = Date.now();
    const observer = (async () => {
      while (!finished) {
        const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
        expect(info.status).toBe(200);
        const running = info.body.operations.running;
        if (running?.status === 'running' && running.progress) seen.push(running.progress);
        if (running?.stage && running.stage !== stages.at(-1)) stages.push(running.stage);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    let last;
    try {
      for (let i = 0; i < 30 && !last; i++) {
        await pollOnce('git', 1);
        const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
        if (info.body.operations.running === null && info.body.operations.last) last = info.body.operations.last;
      }
    } finally {
      finished = true;
      await observer;
      watch.stop();
      s3().middlewareStack.remove('testSlowPuts');
    }
    const seconds = (Date.now() - started) / 1000;

    // Done: the totals, and every byte the import read (all files of the repository).
    const bytes = Object.values(files).reduce((sum, value) => sum + sizeOf(value), 0);
    expect(last).toMatchObject({ status: 'succeeded', attempts: 1 });
    // The stages seen while it ran, in the order the job went through them (writing, the
    // uploads, is long enough to be seen); none is left on the finished operation.
    const order = ['starting', 'cloning', 'reading', 'writing', 'saving'];
    expect(stages).toContain('writing');
    expect(stages.map((stage) => order.indexOf(stage))).toEqual(stages.map((stage) => order.indexOf(stage)).sort((a, b) => a - b));
    expect(stages.every((stage) => order.includes(stage))).toBe(true);
    expect(last.stage).toBeUndefined();
    expect(last.progress).toEqual({ pagesDone: 301, pagesTotal: 301, filesDone: 60, filesTotal: 60, bytes });

    // Running: observed over HTTP mid-way, pagesDone never going back.
    expect(seen.some((p) => p.pagesDone > 0 && p.pagesDone < 301)).toBe(true);
    // Zero until the tree is read (cloning), then the totals.
    expect(seen.every((p) => p.pagesTotal === 301 || (p.pagesTotal === 0 && p.pagesDone === 0))).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.pagesDone).toBeGreaterThanOrEqual(seen[i - 1]!.pagesDone);
      expect(seen[i]!.bytes).toBeGreaterThanOrEqual(seen[i - 1]!.bytes);
    }

    // Bounded: about one write per step of items (here 50) or per second, never one per page; each newer than the last.
    const items = 301 + 60;
    const step = progressStep(items);
    expect(watch.writes.length).toBeGreaterThanOrEqual(Math.floor(items / step));
    expect(watch.writes.length).toBeLessThanOrEqual(Math.ceil(items / step) + Math.ceil(seconds) + 2);
    for (let i = 1; i < watch.writes.length; i++) {
      const [a, b] = [watch.writes[i - 1]!, watch.writes[i]!];
      expect(b.pagesDone + b.filesDone).toBeGreaterThanOrEqual(a.pagesDone + a.filesDone);
    }

    // Export of the unchanged space: everything checked, nothing written.
    const out = await api.request('POST', `/spaces/${spaceId}/git/export`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main', commitMessage: 'Export' } });
    expect(out.status).toBe(204);
    let exported;
    for (let i = 0; i < 30 && !exported; i++) {
      await pollOnce('git', 1);
      const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
      if (info.body.operations.running === null && info.body.operations.last?.operation === 'export') exported = info.body.operations.last;
    }
    expect(exported).toMatchObject({ status: 'succeeded', progress: { pagesDone: 301, pagesTotal: 301, filesDone: 60, filesTotal: 60, bytes: 0 } });
    expect(exported.stage).toBeUndefined();
  });

  it('warns in the log when the Lambda invocation is about to time out', async () => {
    const name = `progress-deadline-${Date.now()}`;
    await createRepo(server, name, { 'README.md': '# Home\n' });
    const spaceId = (await createSpace(api, org)).id;
    const res = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } });
    expect(res.status).toBe(204);
    let body: string | undefined;
    for (let i = 0; i < 10 && !body; i++) {
      const received = await sqs().send(new ReceiveMessageCommand({ QueueUrl: config.queueUrl('git')!, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }));
      body = received.Messages?.map((m) => m.Body!).find((b) => JSON.parse(b).spaceId === spaceId);
    }
    expect(body).toBeDefined();
    const event = { Records: [{ messageId: 'm1', receiptHandle: 'm1', body, attributes: {}, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn', awsRegion: 'us-east-1' }] } as unknown as SQSEvent;
    const context = { functionName: 'git-worker', awsRequestId: 'r1', getRemainingTimeInMillis: () => 12_000 } as unknown as Context;

    // The logger writes JSON lines to stdout and stderr.
    const lines: string[] = [];
    const streams = [process.stdout, process.stderr];
    const writes = streams.map((stream) => stream.write);
    logger.setLogLevel('WARN');
    for (const stream of streams) stream.write = ((chunk: unknown) => (lines.push(String(chunk)), true)) as typeof stream.write;
    try {
      expect(await gitWorker(event, context)).toEqual({ batchItemFailures: [] });
    } finally {
      streams.forEach((stream, i) => (stream.write = writes[i]!));
      logger.setLogLevel('ERROR');
    }
    const warnings = lines.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((l) => l.message === 'git job close to the Lambda timeout');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'WARN', remainingMs: 12_000, spaceId });
    const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
    expect(info.body.operations.last).toMatchObject({ status: 'succeeded', progress: { pagesDone: 1, pagesTotal: 1 } });
  });
});

/**
 * Worker thread body of parse-pool.ts: parses markdown pages so the main thread (the
 * local server, where every request shares one event loop) never waits on the parser.
 */
import { parentPort } from 'node:worker_threads';
import { ContentLimitError } from './limits.ts';
import { markdownToDocument } from './parse.ts';

export interface ParseRequest {
  id: number;
  markdown: string;
}

export type ParseReply =
  | { id: number; ok: true; json: string }
  | { id: number; ok: false; limit: boolean; message: string };

parentPort?.on('message', ({ id, markdown }: ParseRequest) => {
  let reply: ParseReply;
  try {
    // A string crosses threads as one copy; a tree would be cloned node by node.
    reply = { id, ok: true, json: JSON.stringify(markdownToDocument(markdown)) };
  } catch (error) {
    reply = { id, ok: false, limit: error instanceof ContentLimitError, message: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});

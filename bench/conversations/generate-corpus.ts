/**
 * Writes test/fixtures/conversations/corpus.json: 300 labelled conversations (25 per topic of
 * topics.ts), each a subject and one or two user messages made of a problem, a detail and
 * sometimes a filler, chosen with a seeded generator so the file is reproducible:
 *   node bench/conversations/generate-corpus.ts
 */
import { writeFileSync } from 'node:fs';
import { FILLERS, TOPICS } from './topics.ts';

const PER_TOPIC = 25;

/** mulberry32: a small seeded generator (the corpus must be the same on every machine). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(14);
const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;

const conversations = [];
let n = 0;
for (const [topic, bank] of Object.entries(TOPICS)) {
  for (let i = 0; i < PER_TOPIC; i++) {
    const first = [pick(bank.problems), next() < 0.6 ? pick(bank.details) : '', next() < 0.4 ? pick(FILLERS) : ''].filter(Boolean).join(' ');
    const parts = [{ type: 'message', role: 'user', body: first }, { type: 'message', role: 'assistant', body: 'Thanks for reaching out, let me look into it.' }];
    if (next() < 0.3) parts.push({ type: 'message', role: 'user', body: pick(bank.problems) });
    conversations.push({ id: `corpus-${String(n++).padStart(3, '0')}`, topic, subject: next() < 0.8 ? pick(bank.subjects) : '', parts });
  }
}
// Interleave topics: ingestion order must not give the answer away.
conversations.sort((a, b) => (a.id.split('').reverse().join('') < b.id.split('').reverse().join('') ? -1 : 1));
const target = new URL('../../test/fixtures/conversations/corpus.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(conversations, null, 1)}\n`);
console.log(`wrote ${conversations.length} conversations to ${target.pathname}`);

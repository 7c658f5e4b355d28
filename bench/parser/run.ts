import { markdownToDocument, ContentLimitError, MAX_MARKDOWN_BYTES, MAX_MARKDOWN_NESTING } from '../../shared/content/markdown/index.ts';
import { MAX_CONTAINER_LEVELS, MAX_PARAGRAPH_MARKERS } from '../../shared/content/markdown/limits.ts';
import { median, ratio, table } from '../api/stats.ts';

/**
 * `npm run bench:parser`: what a page's markdown costs to parse (markdownToDocument, the
 * whole pipeline the API and Git import run), against its size, in one process.
 * For each shape, sizes double up to the page limit; each row prints ms per KB and that
 * figure against the smallest size of the same shape, measured in the same run ("growth":
 * 1x when the cost is linear). Then inputs over a limit, with the time they are refused in.
 * Knobs: BENCH_MIN_KB (default 64), BENCH_MAX_KB (default the limit, 512).
 */
const MIN_KB = Number(process.env.BENCH_MIN_KB ?? 64);
const MAX_KB = Number(process.env.BENCH_MAX_KB ?? MAX_MARKDOWN_BYTES / 1024);
const watchdog = setTimeout(() => {
  console.error('bench:parser watchdog: stopping after 4 minutes');
  process.exit(2);
}, 4 * 60_000);

/** Repeats `unit(i)` until `bytes` is reached (kept just under, so the limit itself is accepted). */
function fill(bytes: number, unit: (i: number) => string, head = ''): string {
  let text = head;
  for (let i = 0; ; i++) {
    const next = unit(i);
    if (text.length + next.length > bytes - 64) return text;
    text += next;
  }
}

const section = (i: number) => `## Section ${i}\n\nSome **bold** text, _emphasis_, \`code\` and a [link](https://example.com/${i}).\n\n`
  + `* one\n* two\n  * nested [ref][r${i}]\n\n| a | b |\n|---|---|\n| ${i} | y |\n\n`
  + `{% hint style="info" %}\nA hint.\n{% endhint %}\n\n\`\`\`js\nconst x = ${i};\n\`\`\`\n\n> A quote.\n\n[r${i}]: https://example.com/r/${i}\n\n`;

const M = MAX_PARAGRAPH_MARKERS - 1;
/** Ordinary pages, then shapes chosen for what is superlinear in micromark, each just within the limits. */
const shapes: [string, (bytes: number) => string][] = [
  ['ordinary page', (b) => fill(b, section, '# Handbook\n\n')],
  ['block quotes', (b) => fill(b, (i) => `> quote ${i}\n\n`)],
  ['one long list', (b) => fill(b, (i) => `* item ${i}\n`)],
  [`lists nested ${MAX_MARKDOWN_NESTING} deep`, (b) => fill(b, () => `${'- '.repeat(MAX_MARKDOWN_NESTING)}x\n\n`)],
  [`quotes nested ${MAX_MARKDOWN_NESTING} deep`, (b) => fill(b, () => `${'>'.repeat(MAX_MARKDOWN_NESTING)} x\n\n`)],
  ['references before definitions', (b) => fill(b / 2, (i) => `[x][d${i % 1000}] ${i % 200 === 0 ? '\n\n' : ''}`) + '\n\n' + fill(b / 2, (i) => `[d${i}]: https://example.com/${i}\n`)],
  [`${M} * and _ per paragraph`, (b) => fill(b, () => '*a_'.repeat(Math.floor(M / 2)) + '\n\n')],
  [`${M} nested [ per paragraph`, (b) => fill(b, () => '[a'.repeat(Math.ceil(M / 2)) + ']'.repeat(Math.floor(M / 2)) + '\n\n')],
  ['HTML and tag lines alternating', (b) => fill(b, () => '<div>\n{% hint style="info" %}\n')],
  ['backtick runs', (b) => fill(b, (i) => '`'.repeat((i % 50) + 1) + 'x ')],
  ['one big table', (b) => fill(b, (i) => `| ${i} | **b** | [l](u) |\n`, '| a | b | c |\n|---|---|---|\n')],
];

function time(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

/** Median of a few runs for small inputs, one run for large ones (the run must stay under a minute). */
function measure(markdown: string): number {
  const rounds = markdown.length <= 64 * 1024 ? 3 : 1;
  return median(Array.from({ length: rounds }, () => time(() => markdownToDocument(markdown))));
}

const sizes: number[] = [];
for (let kb = MIN_KB; kb <= MAX_KB; kb *= 2) sizes.push(kb);

console.log(`Parse cost of markdownToDocument per shape; limits: ${MAX_MARKDOWN_BYTES / 1024} KiB, nesting ${MAX_MARKDOWN_NESTING}, `
  + `${MAX_PARAGRAPH_MARKERS} markers per paragraph, ${MAX_CONTAINER_LEVELS} container levels per page.`);
console.log('growth = ms/KB against the smallest size of the same shape (linear cost: about 1x).\n');
markdownToDocument(section(0)); // warm the modules up
const rows: string[][] = [];
for (const [name, make] of shapes) {
  process.stderr.write(`${name} `);
  let base: number | undefined;
  for (const kb of sizes) {
    const markdown = make(kb * 1024);
    let ms: number;
    try {
      ms = measure(markdown);
    } catch (error) {
      if (!(error instanceof ContentLimitError)) throw error;
      // Past a limit other than size: the shape stops here (the refusal itself is timed below).
      rows.push([name, `${(markdown.length / 1024).toFixed(0)} KB`, 'refused', error.message, '']);
      break;
    }
    const perKb = ms / (markdown.length / 1024);
    base ??= perKb;
    rows.push([name, `${(markdown.length / 1024).toFixed(0)} KB`, `${ms.toFixed(0)} ms`, `${perKb.toFixed(2)} ms/KB`, ratio(perKb / base)]);
    process.stderr.write('.');
  }
}
process.stderr.write('\n');
console.log(table(['shape', 'size', 'parse', 'per KB', 'growth'], rows));

const DEEPER = MAX_MARKDOWN_NESTING + 8;
const rejected: [string, string][] = [
  ['16 KB of "- " on one line (nested lists)', '- '.repeat(8000) + 'x\n'],
  ['100,000 ">" (nested quotes)', '>'.repeat(100_000) + ' x\n'],
  [`${DEEPER} list levels by indentation`, Array.from({ length: DEEPER }, (_, i) => `${'  '.repeat(i)}- x`).join('\n')],
  [`a page over ${MAX_MARKDOWN_BYTES / 1024} KiB`, 'word '.repeat(MAX_MARKDOWN_BYTES / 5 + 1)],
  ['32 KB of "*a_" in one paragraph', '*a_'.repeat(11_000)],
  ['"[a" x 4,000 then "]" x 4,000', '[a'.repeat(4000) + ']'.repeat(4000)],
  [`${MAX_CONTAINER_LEVELS / 20 + 1} lines nested 20 deep`, `${'> '.repeat(20)}x\n`.repeat(MAX_CONTAINER_LEVELS / 20 + 1)],
];
console.log('\nInputs over a limit:');
const refusals: string[][] = [];
for (const [name, markdown] of rejected) {
  let message = 'accepted!';
  const ms = time(() => {
    try {
      markdownToDocument(markdown);
    } catch (error) {
      message = error instanceof ContentLimitError ? error.message : `unexpected: ${(error as Error).message}`;
    }
  });
  refusals.push([name, `${(markdown.length / 1024).toFixed(0)} KB`, `rejected in ${ms.toFixed(1)} ms`, message]);
}
console.log(table(['input', 'size', 'time', 'message'], refusals));
clearTimeout(watchdog);

import { describe, expect, it } from 'vitest';
import { toHtml } from 'hast-util-to-html';
import { codeHighlighter } from './highlight.ts';

describe('codeHighlighter', () => {
  // Each test file runs in a fresh module, so this is the first use of the TypeScript grammar:
  // its rules are compiled while the first line is tokenized (up to 2 s on a busy machine).
  it('colours the first code block after a cold start as every later one', async () => {
    const code = 'const widget = new Widget({ name: "hello", replicas: 3 });\nawait widget.deploy();';
    const first = await codeHighlighter(['typescript']);
    const html = toHtml(first.highlight(code, 'typescript')!);
    const again = await codeHighlighter(['typescript']);
    expect(html).toBe(toHtml(again.highlight(code, 'typescript')!));
  }, 20_000);

  // What the cold start ran into, made certain: a line that takes over shiki's default 500 ms is
  // coloured to its end (sized from this machine's speed to take about 1.5 s).
  it('colours a line that takes over half a second to its end', async () => {
    const highlighter = await codeHighlighter(['typescript']);
    const calls = (n: number) => 'run(1); '.repeat(n);
    highlighter.highlight(calls(2000), 'typescript');
    const started = performance.now();
    highlighter.highlight(calls(2000), 'typescript');
    // The light and the dark theme each tokenize the line: about 1.5 s each.
    const perCallAndTheme = (performance.now() - started) / 2000 / 2;
    const n = Math.min(200_000, Math.ceil(1500 / perCallAndTheme));
    const html = toHtml(highlighter.highlight(calls(n), 'typescript')!);
    const fn = /class="(sk-[a-z0-9]+)">run</.exec(html)![1]!;
    expect(html.split(`class="${fn}">run<`).length - 1, `${n} calls`).toBe(n);
  }, 30_000);
});

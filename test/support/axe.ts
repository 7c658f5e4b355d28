import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url)('axe-core').source as string;

type AxeRun = (context: string | Document, options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;

/**
 * axe-core's serious and critical violations (WCAG 2 A/AA and best practices), as `rule: targets`,
 * of the whole page or of the part `within` selects (a walk over many pages of one layout checks
 * the layout on some pages and only what differs, the content, on the others).
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  // Injected once per document (a page walked from URL to URL gets a new document each time).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  // Only violations are reported: axe then skips listing what passes (much faster on long pages).
  const result = await page.evaluate((selector) => (window as unknown as { axe: { run: AxeRun } }).axe.run(selector ?? document, { resultTypes: ['violations'] }), within);
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Captioned images are written the way GitBook exports them:
 * `<figure><img src="..." alt="..."><figcaption><p>Caption</p></figcaption></figure>`.
 * An HTML block made only of such figures reads back as an images block.
 */

export interface Figure {
  src: string;
  alt: string;
  caption: string;
}

const FIGURE =
  /<figure>\s*<img\s+([^>]*?)\/?>\s*(?:<figcaption>\s*(?:<p>)?([\s\S]*?)(?:<\/p>)?\s*<\/figcaption>)?\s*<\/figure>/g;
const ATTR = /([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function decode(value: string): string {
  return value.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
}

function encode(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The figures of an HTML block, or undefined when it holds anything else. */
export function parseFigures(html: string): Figure[] | undefined {
  const figures: Figure[] = [];
  const rest = html.replace(FIGURE, (_all, attrs: string, caption: string | undefined) => {
    const found: Record<string, string> = {};
    for (const m of attrs.matchAll(ATTR)) found[m[1]!.toLowerCase()] = decode(m[2] ?? m[3] ?? '');
    figures.push({ src: found.src ?? '', alt: found.alt ?? '', caption: decode((caption ?? '').trim()) });
    return '';
  });
  return figures.length > 0 && rest.trim() === '' ? figures : undefined;
}

export function printFigures(figures: Figure[]): string {
  return figures
    .map(({ src, alt, caption }) => {
      const figcaption = caption ? `<figcaption><p>${encode(caption)}</p></figcaption>` : '<figcaption></figcaption>';
      return `<figure><img src="${encode(src)}" alt="${encode(alt)}">${figcaption}</figure>`;
    })
    .join('\n');
}

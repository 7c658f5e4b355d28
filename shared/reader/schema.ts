import type { Schema } from 'hast-util-sanitize';

type PropertyDefinition = NonNullable<Schema['attributes']>[string][number];

/**
 * The one allow-list of every HTML the service emits (reader pages, search results,
 * raw HTML inside documents, llms-full.txt's HTML): hast-util-sanitize keeps only these
 * elements, attributes and URL protocols; everything else is unwrapped (or, for `STRIPPED`,
 * dropped with its content). Listed in the README's Security section.
 */

/** URL schemes a link may use; relative URLs (paths, `?query`, `#anchor`) are always allowed. */
export const LINK_PROTOCOLS = ['http', 'https', 'mailto', 'tel'] as const;
/** URL schemes an image or a citation may use. */
export const MEDIA_PROTOCOLS = ['http', 'https'] as const;

/** Classes the reader's own markup uses (its CSS and its tab script rely on them). */
export const READER_CLASSES = [
  'anchor', 'brand', 'links', 'announcement', 'sections', 'group', 'spaces', 'page-group', 'description', 'page-actions',
  'pagination', 'search-results', 'no-results', 'hint', 'tabs', 'tab-list', 'tab-panel', 'code', 'code-title', 'line-numbers',
  'tasks', 'table', 'images', 'image', 'stepper', 'step', 'content-ref', 'content-ref-title', 'embed', 'embed-host',
  'embed-url', 'file', 'include', 'raw-markdown', 'footnote', 'footnote-ref', 'footnote-label', 'footnote-back',
  // Layout: header, navigation, page footer
  'logo-light', 'logo-dark', 'image-light', 'image-dark', 'breadcrumbs', 'toc-title', 'toc-2', 'toc-3', 'page-meta', 'edit-link', 'copyright',
  // Content-model blocks (shared/reader/blocks-extended.ts)
  'columns', 'column', 'updates', 'update', 'update-date', 'prompt', 'prompt-description', 'openapi', 'openapi-description',
  'openapi-parameter', 'openapi-response', 'openapi-operation', 'openapi-path', 'openapi-method', 'openapi-spec', 'openapi-summary',
  'openapi-section', 'openapi-schema', 'openapi-type', 'openapi-required', 'openapi-deprecated', 'openapi-enum', 'openapi-example',
  'openapi-server', 'openapi-missing',
  // Highlighted code (shared/reader/highlight.ts)
  'code-header', 'code-lang', 'shiki', 'shiki-themes', 'github-light-default', 'github-dark-default', 'line',
  // Hint titles, card views of tables, math (shared/reader/tables.ts, math.ts)
  'cards', 'cards-large', 'card', 'card-cover', 'card-title', 'card-link', 'math-block', 'math-error',
  // Integration blocks drawn from ContentKit (shared/reader/contentkit.ts)
  'integration-block', 'integration-fallback', 'contentkit-hstack', 'contentkit-vstack', 'contentkit-box', 'contentkit-card',
  'contentkit-card-title', 'contentkit-card-hint', 'contentkit-hint', 'contentkit-step', 'contentkit-webframe',
] as const;
/** Classes authors write that the reader styles: GitBook's buttons (`<a href="..." class="button primary">`). */
export const AUTHOR_CLASSES = ['button', 'primary', 'secondary'] as const;
const CLASS_PATTERNS = [
  /^hint-(?:info|success|warning|danger)$/, /^announcement-(?:info|success|warning|danger)$/, /^align-(?:left|right|center)$/,
  /^language-[\w+#.-]{1,40}$/,
  // Token colour classes of highlighted code; their rules come only from the page's own hashed style.
  /^sk-[0-9a-z]{1,16}$/,
];

/** Elements dropped together with everything inside them (raw text, foreign content, embedding). */
export const STRIPPED = [
  'script', 'style', 'template', 'noscript', 'noembed', 'noframes', 'xmp', 'plaintext', 'textarea', 'title',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'select', 'head', 'meta', 'link', 'base',
];

export const ELEMENTS = [
  // Text
  'p', 'br', 'wbr', 'hr', 'a', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup',
  'kbd', 'code', 'samp', 'var', 'abbr', 'dfn', 'q', 'cite', 'time', 'ruby', 'rt', 'rp',
  // Blocks
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'blockquote', 'pre', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'figure', 'figcaption', 'img', 'details', 'summary', 'article', 'nav',
  // Tables
  'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  // Reader widgets: task list boxes and tab buttons (their attributes are fixed below)
  'input', 'button',
];

const ARIA: PropertyDefinition[] = ['ariaLabel', 'ariaHidden', 'ariaLabelledBy', 'ariaDescribedBy', ['ariaCurrent', 'page', 'true']];

export const READER_SCHEMA: Schema = {
  tagNames: ELEMENTS,
  strip: STRIPPED,
  attributes: {
    '*': ['id', 'title', 'lang', 'dir', ['className', ...READER_CLASSES, ...AUTHOR_CLASSES, ...CLASS_PATTERNS], ['role', 'note', 'tab', 'tablist', 'tabpanel', 'status'], ...ARIA],
    a: ['href', ['rel', 'noopener', 'noreferrer', 'nofollow', 'prev', 'next'], ['target', '_blank'], 'download'],
    // srcSet/sizes: resized variants of the space's own images (shared/content/images); each candidate's URL is checked like `src`.
    img: ['src', 'srcSet', 'sizes', 'alt', 'width', 'height', ['loading', 'lazy'], ['decoding', 'async']],
    blockquote: ['cite'],
    q: ['cite'],
    del: ['cite', 'dateTime'],
    ins: ['cite', 'dateTime'],
    time: ['dateTime'],
    ol: ['start', 'reversed'],
    li: ['value'],
    details: ['open'],
    th: ['colSpan', 'rowSpan', 'scope', ['align', 'left', 'right', 'center']],
    td: ['colSpan', 'rowSpan', ['align', 'left', 'right', 'center']],
    col: ['span'],
    colgroup: ['span'],
    div: ['dataTabs', 'hidden'],
    input: [['type', 'checkbox'], ['disabled', true], 'checked'],
    button: [['type', 'button'], 'ariaControls', ['ariaSelected', 'true', 'false']],
  },
  required: { input: { type: 'checkbox', disabled: true }, button: { type: 'button' } },
  protocols: { href: [...LINK_PROTOCOLS], src: [...MEDIA_PROTOCOLS], srcSet: [...MEDIA_PROTOCOLS], cite: [...MEDIA_PROTOCOLS] },
  // No `name` attribute is allowed (it is what clobbers `document.*`); ids stay unprefixed
  // so `#anchor` links work without script; ids cannot shadow the built-ins the tab script uses.
  clobber: [],
  clobberPrefix: '',
  allowComments: false,
  allowDoctypes: false,
};

/**
 * MathML of KaTeX's output (shared/reader/math.ts), sanitized on its own: presentation
 * elements and their layout attributes only. No HTML inside math (so nothing switches
 * namespaces when the browser parses it again), no `mglyph`, `malignmark` or `annotation-xml`
 * (the known mutation-XSS vectors), no links, ids, classes or styles. Author raw HTML never
 * gets MathML: `math` stays in READER_SCHEMA's STRIPPED.
 */
export const MATHML_ELEMENTS = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup', 'mfrac',
  'msqrt', 'mroot', 'mstyle', 'mtable', 'mtr', 'mtd', 'munder', 'mover', 'munderover', 'mpadded', 'mphantom', 'menclose',
];
const TOKEN_ATTRIBUTES = ['mathvariant'];
export const MATHML_SCHEMA: Schema = {
  tagNames: MATHML_ELEMENTS,
  strip: STRIPPED.filter((name) => name !== 'math'),
  attributes: {
    math: [['display', 'block', 'inline']],
    annotation: [['encoding', 'application/x-tex']],
    mi: TOKEN_ATTRIBUTES,
    mn: TOKEN_ATTRIBUTES,
    mtext: TOKEN_ATTRIBUTES,
    mo: [...TOKEN_ATTRIBUTES, 'fence', 'stretchy', 'separator', 'lspace', 'rspace', 'minsize', 'maxsize', 'largeop', 'movablelimits', 'symmetric', 'accent'],
    mstyle: [...TOKEN_ATTRIBUTES, 'scriptlevel', 'displaystyle', 'mathsize'],
    mfrac: ['linethickness'],
    mover: ['accent'],
    munder: ['accentunder'],
    munderover: ['accent', 'accentunder'],
    mtable: ['rowspacing', 'columnspacing', 'columnalign', 'rowalign', 'rowlines', 'columnlines', 'frame', 'framespacing', 'displaystyle'],
    mtr: ['columnalign', 'rowalign'],
    mtd: ['columnalign', 'rowalign', 'columnspan', 'rowspan'],
    mspace: ['width', 'height', 'depth', 'linebreak'],
    mpadded: ['width', 'height', 'depth', 'lspace', 'voffset'],
    menclose: ['notation'],
  },
  protocols: {},
  clobber: [],
  clobberPrefix: '',
  allowComments: false,
  allowDoctypes: false,
};

import { badRequest } from '../http/errors.ts';
import { contentHashOf, hashBytes } from './blobs.ts';
import { emptyDocument } from './initial.ts';
import { findPage } from './tree.ts';
import type { ContentChange } from './change-schema.ts';
import type { Manifest } from './types.ts';

/**
 * Built-in content templates (POST /spaces/{spaceId}/content/template, applyTemplateToSpace).
 * A template is a list of markdown pages inserted at the end of the root with `insert_page`
 * changes, so every rule of a content edit holds (slugs unique among siblings: applying a
 * template twice is 409). Ids (also in docs/decisions.md):
 *
 * - `getting-started`: Introduction, Quickstart. Content ref `website`.
 * - `api-reference`: Overview, Authentication, Endpoints. Content ref `spec` (the API specification).
 * - `product-docs`: Overview, Features, FAQ. Content ref `website`.
 * - `changelog`: Changelog. Content ref `releases`.
 *
 * `params.contentRefs` names, per template, what its pages link to: a `url`, a `page` or a
 * `file` reference of the same space. A template page without its ref leaves the sentence out.
 */

export interface TemplatePage {
  /** In-batch reference: other pages of the template link to `<ref>`. */
  ref: string;
  title: string;
  description: string;
  markdown: string;
}

/** Markdown link targets of the content refs given (absent when not given). */
type Targets = Partial<Record<string, string>>;

export interface ContentTemplate {
  id: string;
  title: string;
  /** Content ref names the template uses, with what each is for. */
  contentRefs: Record<string, string>;
  pages(targets: Targets): TemplatePage[];
}

const ref = (template: string, page: string) => `template-${template}-${page}`;
const when = (target: string | undefined, text: (target: string) => string) => (target ? `${text(target)}\n` : '');

const gettingStarted: ContentTemplate = {
  id: 'getting-started',
  title: 'Getting started',
  contentRefs: { website: 'the product website, linked from the introduction' },
  pages: (t) => [
    {
      ref: ref('getting-started', 'introduction'),
      title: 'Introduction',
      description: 'What this documentation covers and where to begin.',
      markdown: `Welcome! This documentation explains what the product does, who it is for and how to get the most out of it.

{% hint style="info" %}
New here? Follow the [Quickstart](${ref('getting-started', 'quickstart')}) to be up and running in a few minutes.
{% endhint %}

## What you will find here

* **Guides** that walk through common tasks step by step.
* **Reference** pages that describe every option.
* **Answers** to the questions people ask most.

${when(t.website, (url) => `Learn more about the product on [the website](${url}).`)}`,
    },
    {
      ref: ref('getting-started', 'quickstart'),
      title: 'Quickstart',
      description: 'Install, configure and run in three steps.',
      markdown: `## 1. Install

\`\`\`bash
npm install my-product
\`\`\`

## 2. Configure

Create a file named \`config.json\` next to your project:

\`\`\`json
{ "apiKey": "YOUR_API_KEY" }
\`\`\`

## 3. Run

1. Start the application.
2. Open the dashboard.
3. Check that the status is **Ready**.

{% hint style="success" %}
That's it: you are all set. Head back to the [Introduction](${ref('getting-started', 'introduction')}) to explore further.
{% endhint %}
`,
    },
  ],
};

const apiReference: ContentTemplate = {
  id: 'api-reference',
  title: 'API reference',
  contentRefs: { spec: 'the API specification (e.g. an OpenAPI file), linked from the endpoints page' },
  pages: (t) => [
    {
      ref: ref('api-reference', 'overview'),
      title: 'Overview',
      description: 'The API at a glance: base URL, formats and conventions.',
      markdown: `The API is organised around REST. It accepts JSON request bodies, returns JSON responses and uses standard HTTP status codes.

| Item | Value |
| --- | --- |
| Base URL | \`https://api.example.com/v1\` |
| Format | JSON |
| Authentication | Bearer token, see [Authentication](${ref('api-reference', 'authentication')}) |

## Errors

Errors answer with a status code and a body of the form:

\`\`\`json
{ "error": { "code": 404, "message": "Not found" } }
\`\`\`
`,
    },
    {
      ref: ref('api-reference', 'authentication'),
      title: 'Authentication',
      description: 'How requests are authenticated.',
      markdown: `Every request carries an access token in the \`Authorization\` header:

\`\`\`bash
curl https://api.example.com/v1/me \\
  -H "Authorization: Bearer YOUR_TOKEN"
\`\`\`

{% hint style="warning" %}
Keep your tokens secret: anyone holding a token can act on your behalf. Revoke a token as soon as it may have leaked.
{% endhint %}
`,
    },
    {
      ref: ref('api-reference', 'endpoints'),
      title: 'Endpoints',
      description: 'The operations the API offers.',
      markdown: `${when(t.spec, (url) => `The complete list of operations is in [the API specification](${url}).\n`)}
| Method | Path | Description |
| --- | --- | --- |
| \`GET\` | \`/items\` | List items |
| \`POST\` | \`/items\` | Create an item |
| \`GET\` | \`/items/{id}\` | Get an item |
| \`DELETE\` | \`/items/{id}\` | Delete an item |

See the [Overview](${ref('api-reference', 'overview')}) for the conventions every endpoint follows.
`,
    },
  ],
};

const productDocs: ContentTemplate = {
  id: 'product-docs',
  title: 'Product documentation',
  contentRefs: { website: 'the product website, linked from the overview' },
  pages: (t) => [
    {
      ref: ref('product-docs', 'overview'),
      title: 'Overview',
      description: 'What the product is and the problems it solves.',
      markdown: `Describe the product in a few sentences: what it is, who it is for and what problem it solves.

${when(t.website, (url) => `Visit [the website](${url}) for news and pricing.\n`)}
## Next steps

* Discover the [Features](${ref('product-docs', 'features')}).
* Find answers in the [FAQ](${ref('product-docs', 'faq')}).
`,
    },
    {
      ref: ref('product-docs', 'features'),
      title: 'Features',
      description: 'What you can do with the product.',
      markdown: `## Collaboration

Work together in real time and review changes before they go live.

## Integrations

Connect the tools your team already uses.

{% hint style="info" %}
Each feature gets its own page as the documentation grows: add them under this one.
{% endhint %}
`,
    },
    {
      ref: ref('product-docs', 'faq'),
      title: 'FAQ',
      description: 'Frequently asked questions.',
      markdown: `## How do I get started?

Read the [Overview](${ref('product-docs', 'overview')}) first.

## Where can I get help?

Contact the support team; answers usually come within one business day.
`,
    },
  ],
};

const changelog: ContentTemplate = {
  id: 'changelog',
  title: 'Changelog',
  contentRefs: { releases: 'where releases are published (e.g. a releases page), linked from the changelog' },
  pages: (t) => [
    {
      ref: ref('changelog', 'changelog'),
      title: 'Changelog',
      description: 'Notable changes, newest first.',
      markdown: `All notable changes are listed here, newest first.
${when(t.releases, (url) => `\nEvery release is also published on [the releases page](${url}).\n`)}
## 1.1.0

### Added

* A new feature.

### Fixed

* A bug that affected some users.

## 1.0.0

First release.
`,
    },
  ],
};

export const contentTemplates: Record<string, ContentTemplate> = Object.fromEntries(
  [gettingStarted, apiReference, productDocs, changelog].map((t) => [t.id, t]),
);
export const templateIds = Object.keys(contentTemplates);

export type TemplateContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'file'; file: string; space?: string };

const EMPTY_DOCUMENT_BLOB = hashBytes(JSON.stringify(emptyDocument()));

/**
 * The content changes that apply a template to `manifest`: the placeholder page of a new
 * space (a single empty "Untitled" page, unless a content ref names it) is replaced, then the template's pages are
 * inserted at the end of the root. Content refs must name the template's refs and, for
 * pages and files, exist in the same space's content (400 otherwise).
 */
export function templateChanges(
  template: ContentTemplate,
  manifest: Manifest,
  contentRefs: Record<string, TemplateContentRef>,
  spaceId: string,
): ContentChange[] {
  const targets: Targets = {};
  for (const [name, contentRef] of Object.entries(contentRefs)) {
    const field = `params.contentRefs.${name}`;
    if (!(name in template.contentRefs)) {
      const known = Object.keys(template.contentRefs);
      throw badRequest(`${field}: is not used by template ${template.id} (it uses ${known.join(', ')})`);
    }
    if (contentRef.kind !== 'url' && contentRef.space !== undefined && contentRef.space !== spaceId) {
      throw badRequest(`${field}.space: must be this space (${spaceId})`);
    }
    if (contentRef.kind === 'page' && !findPage(manifest, contentRef.page)) throw badRequest(`${field}.page: no page ${contentRef.page} in the content`);
    if (contentRef.kind === 'file' && !manifest.files.some((f) => f.id === contentRef.file)) {
      throw badRequest(`${field}.file: no file ${contentRef.file} in the content`);
    }
    targets[name] = contentRef.kind === 'url' ? `<${contentRef.url}>` : contentRef.kind === 'page' ? `/pages/${contentRef.page}` : `/files/${contentRef.file}`;
  }
  const changes: ContentChange[] = [];
  const [only, ...others] = manifest.pages;
  const placeholder = only && others.length === 0 && only.type === 'document' && only.title === 'Untitled' && only.slug === 'untitled'
    && only.pages.length === 0 && (only.document === undefined || contentHashOf(only.document) === EMPTY_DOCUMENT_BLOB)
    && !Object.values(contentRefs).some((r) => r.kind === 'page' && r.page === only.id);
  if (placeholder) changes.push({ operation: 'delete_page', page: only.id });
  for (const page of template.pages(targets)) {
    changes.push({ operation: 'insert_page', ref: page.ref, title: page.title, description: page.description, document: { markdown: page.markdown } });
  }
  return changes;
}

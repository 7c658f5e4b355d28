import { expect } from 'vitest';
import type { TestApi, TestOrg } from './api.ts';
import { editContent, pagesByTitle, spaceWithChangeRequest } from './published-content.ts';

export const GUIDE_MARKDOWN = `# Getting started

Welcome to the **widget** guide.

{% hint style="warning" %}
Back up your data before upgrading.
{% endhint %}

## Install

{% tabs %}
{% tab title="macOS" %}
Run brew install widget.
{% endtab %}

{% tab title="Linux" %}
Run apt install widget.
{% endtab %}
{% endtabs %}

{% code title="config.yaml" %}
\`\`\`yaml
port: 8080
\`\`\`
{% endcode %}

Read the [configuration](configuration.md) next.
`;

export const CONFIG_MARKDOWN = `# Configuration

Every setting of the flux capacitor lives in one file.

{% content-ref url="getting-started.md" %}
[getting-started.md](getting-started.md)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=abc" %}
`;

/** A file uploaded with the pages (pages refer to it by name, e.g. `![x](.gitbook/assets/<name>)`). */
export interface FixtureFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** A page showing a 1280x720 screenshot and highlighted code: what the image and code checks read. */
export const IMAGES_MARKDOWN = `# Screenshots

The dashboard after the first start:

![The dashboard](.gitbook/assets/dashboard.png)

## Script

\`\`\`js
const answer = 40 + 2; // the answer
console.log(answer);
\`\`\`

## Next steps

Read on.
`;

/** A space whose primary content (merged through a change request) has the given pages (and files). */
export async function spaceWithPages(api: TestApi, org: TestOrg, title: string, markdowns: string[], files: FixtureFile[] = []) {
  const { space, cr } = await spaceWithChangeRequest(api, org, title);
  const existing = await pagesByTitle(api, org, space.id, cr.id);
  const changes: unknown[] = [
    ...(files.length > 0 ? [{ operation: 'insert_files', files: files.map((f) => ({ name: f.name, contentType: f.contentType, base64: f.bytes.toString('base64') })) }] : []),
    ...markdowns.map((markdown) => ({ operation: 'insert_page', document: { markdown } })),
  ];
  for (const page of Object.values(existing)) changes.push({ operation: 'delete_page', page: page.id });
  // A content edit holds at most 50 changes.
  for (let i = 0; i < changes.length; i += 50) await editContent(api, org, space.id, cr.id, changes.slice(i, i + 50));
  const merged = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token });
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  return space as { id: string; title: string };
}

/**
 * A published site showing the spaces, with the given visibility; answers its id and
 * `urls.published`. `adaptive`: the site's adaptive content is enabled, so visitors' claims
 * reach its conditions.
 */
export async function publishedSite(api: TestApi, org: TestOrg, spaceIds: string[], visibility = 'public', publish = true, { adaptive = false } = {}) {
  const created = await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Widget Docs', visibility, spaces: spaceIds } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const base = `/orgs/${org.id}/sites/${created.body.id}`;
  if (adaptive) {
    const patched = await api.request('PATCH', base, { token: org.admin.token, body: { adaptiveContent: { enabled: true } } });
    expect(patched.body.adaptiveContent).toEqual({ enabled: true });
  }
  if (!publish) return { id: created.body.id as string, url: `${api.url}/s/${created.body.id}`, base };
  const published = await api.request('POST', `${base}/publish`, { token: org.admin.token });
  expect(published.status).toBe(200);
  return { id: created.body.id as string, url: published.body.urls.published as string, base };
}

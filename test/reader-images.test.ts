import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { SQSEvent } from 'aws-lambda';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { publishedSite, spaceWithPages } from './support/reader-site.ts';
import { pngFile } from './support/png.ts';
import { launchChromium, RUN_BROWSER_TESTS } from './support/chromium.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { handler as imagesWorker } from '../functions/workers/images/handler.ts';
import { hashBytes, imageVariantKey } from '../shared/content/blobs.ts';
import { s3 } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { enqueue } from '../shared/jobs/enqueue.ts';

/**
 * Resized image variants (shared/content/images, docs/reader.md "Images"): the page offers
 * them in `srcset` from the start, their URLs answer the original until the images worker
 * made them, then WebP at the declared widths; browsers on phones download the small one.
 */

const api = useTestApi();
let org: TestOrg;
let site: { id: string; url: string; base: string };

/** A 2,750 x 1,400 screenshot-like PNG (gradients and blocks), small enough to upload (< 1 MB). */
async function largePng(): Promise<Buffer> {
  const width = 2750;
  const height = 1400;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255 / width) | 0;
      raw[i + 1] = (y * 255 / height) | 0;
      raw[i + 2] = ((x >> 6) + (y >> 6)) % 2 ? 200 : 40;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** A PNG whose header claims `width` x `height` but whose pixels are one: image-size reads the size, sharp cannot decode it. */
function brokenPng(width: number, height: number): Buffer {
  const png = pngFile(1, 1);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

const big = await largePng();
const broken = brokenPng(3000, 2000);
const FILES = [
  { name: 'big.png', contentType: 'image/png', bytes: big },
  { name: 'small.png', contentType: 'image/png', bytes: pngFile(600, 400, 2) },
  { name: 'wide.svg', contentType: 'image/svg+xml', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="1000"><rect width="3000" height="1000" fill="#08f"/></svg>') },
  { name: 'huge.png', contentType: 'image/png', bytes: brokenPng(12_000, 9_000) },
  { name: 'broken.png', contentType: 'image/png', bytes: broken },
  { name: 'manual.pdf', contentType: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') },
];
const GALLERY = `# Gallery

![Big](.gitbook/assets/big.png)

![Small](.gitbook/assets/small.png)

![Vector](.gitbook/assets/wide.svg)

![Huge](.gitbook/assets/huge.png)

![Broken](.gitbook/assets/broken.png)

{% file src=".gitbook/assets/manual.pdf" %}
The manual
{% endfile %}
`;

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
const imgTag = (html: string, alt: string) => new RegExp(`<img [^>]*alt="${alt}"[^>]*>`).exec(html)?.[0];
const attr = (tag: string, name: string) => new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1];

/** Runs the images worker until its queue stays empty (a revision's job sends the image jobs on). */
async function drainImages(): Promise<void> {
  for (let empty = 0; empty < 2;) empty = (await pollOnce('images', 1)) > 0 ? 0 : empty + 1;
}

let bigTag: string;
beforeAll(async () => {
  org = await newOrg();
  const space = await spaceWithPages(api, org, 'Images', [GALLERY], FILES);
  site = await publishedSite(api, org, [space.id], 'public');
  const html = await (await get(`${site.url}/gallery`)).text();
  bigTag = imgTag(html, 'Big')!;
  expect(bigTag, html.slice(html.indexOf('<article'), html.indexOf('</article>'))).toBeDefined();
}, 60_000);

describe('before the images worker ran', () => {
  it('a wide raster image offers its variants and the original in srcset, with sizes matching the content column', () => {
    const src = attr(bigTag, 'src')!;
    expect(src).toMatch(new RegExp(`^/s/${site.id}/~files/[0-9a-f]{64}/big\\.png$`));
    const base = src.slice(0, -'/big.png'.length);
    expect(attr(bigTag, 'srcset')).toBe(`${base}/w752/big.png 752w, ${base}/w1504/big.png 1504w, ${src} 2750w`);
    expect(attr(bigTag, 'sizes')).toBe('(max-width: 52rem) calc(100vw - 2.2rem), 47rem');
    expect(attr(bigTag, 'width')).toBe('2750');
    expect(attr(bigTag, 'height')).toBe('1400');
  });

  it('small, vector and oversized images (and downloads) have no srcset', async () => {
    const html = await (await get(`${site.url}/gallery`)).text();
    for (const alt of ['Small', 'Vector', 'Huge']) {
      const tag = imgTag(html, alt);
      expect(tag, alt).toBeDefined();
      expect(tag, alt).not.toContain('srcset');
    }
    expect(imgTag(html, 'Small')).toContain('width="600"');
    expect(html).toContain('manual.pdf');
    // Only Big and Broken (a corrupt file whose header claims 3000 px) are offered variants.
    expect(html.match(/srcset=/g)).toHaveLength(2);
  });

  it('a variant URL answers the original bytes, with the original visibility, cached only briefly', async () => {
    const variant = attr(bigTag, 'srcset')!.split(', ')[0]!.split(' ')[0]!;
    const res = await get(`${api.url}${variant}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    // Widths that are not declared, and extra segments, are no file.
    expect((await get(`${api.url}${variant.replace('/w752/', '/w999/')}`)).status).toBe(404);
    expect((await get(`${api.url}${variant.replace('/w752/', '/w752/x/')}`)).status).toBe(404);
  });
});

describe('after the images worker ran', () => {
  let base: string;
  beforeAll(async () => {
    await drainImages();
    base = attr(bigTag, 'src')!.slice(0, -'/big.png'.length);
  }, 120_000);

  it('serves each variant as WebP at its width, cached for a year, with its own ETag (304)', async () => {
    for (const width of [752, 1504]) {
      const res = await get(`${api.url}${base}/w${width}/big.png`);
      expect(res.status, `w${width}`).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
      expect(meta.height).toBe(Math.round(1400 * width / 2750));
      expect(bytes.length).toBeLessThan(big.length);
      const etag = res.headers.get('etag')!;
      expect(etag).not.toBe((await get(`${api.url}${base}/big.png`)).headers.get('etag'));
      expect((await get(`${api.url}${base}/w${width}/big.png`, { 'if-none-match': etag })).status).toBe(304);
    }
    // The page's HTML did not change with the job.
    const html = await (await get(`${site.url}/gallery`)).text();
    expect(imgTag(html, 'Big')).toBe(bigTag);
  });

  it('stores variants under the key derived from the source blob and the width', async () => {
    const head = await s3().send(new HeadObjectCommand({ Bucket: config.bucketName, Key: imageVariantKey(hashBytes(big), 752) }));
    expect(head.ContentType).toBe('image/webp');
  });

  it('skips a variant that exists (a redelivered job changes nothing)', async () => {
    const key = imageVariantKey(hashBytes(big), 1504);
    const marker = await sharp({ create: { width: 10, height: 5, channels: 3, background: '#f00' } }).webp().toBuffer();
    await s3().send(new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: marker, ContentType: 'image/webp' }));
    await enqueue({ kind: 'image-variants', images: [{ blob: hashBytes(big), contentType: 'image/png', width: 2750, height: 1400 }] });
    await drainImages();
    const res = await get(`${api.url}${base}/w1504/big.png`);
    expect(Buffer.from(await res.arrayBuffer()).equals(marker)).toBe(true);
    // Put the real variant back for the browser test.
    await s3().send(new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: await sharp(big).resize({ width: 1504 }).webp().toBuffer(), ContentType: 'image/webp' }));
  }, 60_000);

  it('a corrupt image is skipped, not retried: the job succeeds and its variant URL keeps answering the original', async () => {
    const job = { kind: 'image-variants', images: [{ blob: hashBytes(broken), contentType: 'image/png', width: 3000, height: 2000 }] };
    const event = { Records: [{ messageId: 'broken-1', receiptHandle: 'r', body: JSON.stringify(job), attributes: {}, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'local', awsRegion: 'us-east-1' }] } as unknown as SQSEvent;
    expect(await imagesWorker(event, {} as never)).toEqual({ batchItemFailures: [] });
    const html = await (await get(`${site.url}/gallery`)).text();
    const variant = attr(imgTag(html, 'Broken')!, 'srcset')!.split(', ')[0]!.split(' ')[0]!;
    const res = await get(`${api.url}${variant}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(broken)).toBe(true);
  });

  it('variants of a share-link site need the share link like its pages', async () => {
    const spaceId = (await api.request('GET', `${site.base}/site-spaces`, { token: org.admin.token })).body.items[0].space.id;
    const shared = await publishedSite(api, org, [spaceId], 'share-link');
    const link = await api.request('POST', `${shared.base}/share-links`, { token: org.admin.token, body: { name: 'Images' } });
    const page = await get(link.body.urls.published.replace('?', '/gallery?'));
    const variant = attr(imgTag(await page.text(), 'Big')!, 'srcset')!.split(', ')[0]!.split(' ')[0]!;
    expect((await get(`${api.url}${variant}`)).status).toBe(401);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const res = await get(`${api.url}${variant}`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  describe.skipIf(!RUN_BROWSER_TESTS)('in Chromium', () => {
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    beforeAll(async () => {
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('a 390 px wide phone downloads the 752 px variant, not the 2,750 px original', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const page = await context.newPage();
      await page.goto(`${site.url}/gallery`, { waitUntil: 'load' });
      const img = page.locator('article img[alt="Big"]');
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.currentSrc), { timeout: 15_000 }).toMatch(/\/w752\/big\.png$/);
      const images = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('big.png')));
      expect(images.length).toBeGreaterThan(0);
      for (const name of images) expect(name).toMatch(/\/w752\/big\.png$/);
      await context.close();
    }, 60_000);
  });
});

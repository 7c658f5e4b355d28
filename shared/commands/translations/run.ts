/**
 * Translation runs (spec 4.16 POST .../run and the `translations` queue worker).
 *
 * Requesting a run stores a fresh run token (`pendingRun`) on the translation, sets status
 * `pending` and enqueues a `translation-run` job. The worker:
 *   1. reads the translation (a job for a translation that does not exist fails, so it is
 *      retried and ends in the DLQ); without a pending run token there is nothing to do
 *      (a redelivered job whose run already completed);
 *   2. sets status `running` (on condition the token is unchanged);
 *   3. reads the source space's primary revision and translates its pages (titles,
 *      descriptions, documents) and reusable contents with the Translator, incrementally:
 *      parts whose source hash equals the previous run's are copied from the previous
 *      result, not sent again (shared/translate/manifest.ts);
 *   4. in ONE transaction: creates the result space on the first run ("<source title>
 *      (<language>)", same org and parent, right after the source, `language` set) or moves
 *      the existing result space to the new revision, writes the revision, and completes the
 *      translation (status `completed`, `result`, `stats`, token removed), on condition the
 *      token is still the one this job read. A redelivery after a crash redoes the run; a
 *      run superseded by a newer request leaves the work to the newer job.
 * A source space that is gone (or has no content) ends the run without retry: status back to
 * `pending`, `lastError` recorded. A run that fails (a provider's error, throttling past the
 * SDK's retries, a timeout) is retried by the queue; its last attempt (MAX_RECEIVE_COUNT, then
 * the DLQ) ends the run the same way, so the status never stays `running` after the work stopped.
 */
import { movePrimaryRevision } from '../../content/primary-revision.ts';
import { contentUpdated, emitOrganizationEvent } from '../../integrations/events.ts';
import { nowIso, nowMs } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { run, transact, type Write } from '../../db/writes.ts';
import { ConditionFailed } from '../../db/errors.ts';
import { translationEntity, type TranslationItem, type TranslationStats } from '../../db/entities/translation.ts';
import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { isExpired } from '../../policies/access.ts';
import { loadRevision, prepareRevision } from '../../content/revisions.ts';
import { getJsonBlob, putJsonBlob } from '../../content/blobs.ts';
import { newSpace } from '../spaces/create.ts';
import { listChildren, positionAmong } from '../content/tree.ts';
import { placedUnder } from '../content/move.ts';
import { collectionEntity } from '../../db/entities/collection.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { defaultTranslator, type TranslateRequest, type Translator } from '../../translate/translator.ts';
import { translateManifest, type PreviousRun } from '../../translate/manifest.ts';
import { MAX_RECEIVE_COUNT } from '../../jobs/redrive.ts';
import { config } from '../../config.ts';
import { sliceChars } from '../../http/string-length.ts';

/** Attempts at one run before it is given up (the queue's receive limit: the last failure goes to the DLQ). */
export const MAX_RUN_ATTEMPTS = MAX_RECEIVE_COUNT;


export async function readTranslation(orgId: string, translationId: string, consistent = true): Promise<TranslationItem | undefined> {
  return translationEntity.get({ orgId, translationId }, { consistent });
}

/** Stores a new run token and enqueues the job. False when there is no such translation. */
export async function requestTranslationRun(orgId: string, translationId: string): Promise<boolean> {
  const token = randomId();
  try {
    await run(translationEntity.update({ orgId, translationId }, { set: { pendingRun: token, status: 'pending', updatedAt: nowIso() }, remove: ['runAttempts'] }));
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
  await enqueue({ kind: 'translation-run', organizationId: orgId, translationId });
  return true;
}

/** Sets attributes on condition the run token is unchanged; false when it changed. */
async function updateIfToken(
  orgId: string, translationId: string, token: string, set: Partial<TranslationItem>, remove: (keyof TranslationItem & string)[] = [],
): Promise<boolean> {
  try {
    await run(translationEntity.update({ orgId, translationId }, { set, remove, if: (w) => w.eq('pendingRun', token) }));
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/** What the previous run produced, for incremental runs: its result manifest and content hashes. */
async function previousRun(translation: TranslationItem): Promise<PreviousRun> {
  const hashes = translation.sourceHashes ? await getJsonBlob<Record<string, string>>(translation.sourceHashes) : {};
  const result = translation.result ? await loadRevision(translation.result.space, translation.result.revision) : undefined;
  return { hashes, ...(result ? { manifest: result.manifest } : {}) };
}

function usableSpace(space: SpaceItem | undefined, orgId: string): SpaceItem | undefined {
  if (!space) return undefined;
  if (space.orgId !== orgId || space.deletedAt || isExpired(space)) return undefined;
  return space;
}

/** The `translation-run` job. */
export async function runTranslationJob(orgId: string, translationId: string, translator: Translator = defaultTranslator()): Promise<void> {
  const translation = await readTranslation(orgId, translationId);
  if (!translation) throw new Error(`No translation ${translationId} in organization ${orgId}`);
  const token = translation.pendingRun;
  if (!token) return; // already completed: a redelivered job
  const started = nowMs();
  const attempt = (translation.runAttempts ?? 0) + 1;
  if (!await updateIfToken(orgId, translationId, token, { status: 'running', runAttempts: attempt, updatedAt: nowIso() })) return;
  try {
    await translateAndStore(translation, token, started, translator);
  } catch (error) {
    if (attempt >= MAX_RUN_ATTEMPTS) {
      // Given up: the status goes back to `pending` (the public statuses have no failure) with
      // the reason kept, and a new run request starts afresh. Thrown still, so the job reaches the DLQ.
      await updateIfToken(orgId, translationId, token,
        { status: 'pending', updatedAt: nowIso(), lastError: `The run failed ${attempt} times; last error: ${(error as Error).message}`.slice(0, 2000) },
        ['pendingRun', 'runAttempts']);
    }
    throw error;
  }
}

async function translateAndStore(translation: TranslationItem, token: string, started: number, translator: Translator): Promise<void> {
  const { orgId, id: translationId } = translation;

  const source = usableSpace(await spaceEntity.get({ spaceId: translation.source.space }, { consistent: true }), orgId);
  const revision = source?.revision ? await loadRevision(source.id, source.revision) : undefined;
  if (!source || !revision) {
    await updateIfToken(orgId, translationId, token,
      { status: 'pending', updatedAt: nowIso(), lastError: `The source space ${translation.source.space} is gone or has no content` },
      ['pendingRun', 'runAttempts']);
    return;
  }
  // Under the worker's Lambda timeout: a provider that stops answering fails the attempt here,
  // where it is recorded, instead of the Lambda being killed mid-run.
  const timeoutMs = config.translationRunTimeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const request: TranslateRequest = { from: translation.source.language, to: translation.language, instructions: translation.instructions, signal: deadline };
  let content: Awaited<ReturnType<typeof translateManifest>>;
  try {
    // Raced with the deadline too: a provider that ignores the signal still ends the attempt.
    const timedOut = new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(deadline.reason as Error), { once: true }));
    timedOut.catch(() => undefined);
    content = await Promise.race([translateManifest(revision.manifest, translator, request, await previousRun(translation)), timedOut]);
  } catch (error) {
    if (deadline.aborted) throw new Error(`The translation provider did not finish within ${timeoutMs} ms`, { cause: error });
    throw error;
  }
  const sourceHashes = await putJsonBlob(content.hashes);

  const now = nowIso();
  const writes: Write<unknown>[] = [];
  const existing = translation.result
    ? usableSpace(await spaceEntity.get({ spaceId: translation.result.space }, { consistent: true }), orgId)
    : undefined;
  let resultSpaceId: string;
  let revisionId: string;
  if (existing) {
    const next = await prepareRevision({
      spaceId: existing.id, manifest: content.manifest, parents: existing.revision ? [existing.revision] : [], type: 'edits', createdBy: translation.createdBy,
    });
    // Conditional on the revision read: an edit merged into the result space meanwhile makes
    // the run fail and be retried from fresh reads instead of being overwritten.
    writes.push(next.put, movePrimaryRevision({ spaceId: existing.id, from: existing.revision, to: next.revision.id, now }));
    resultSpaceId = existing.id;
    revisionId = next.revision.id;
  } else {
    // Beside the source, under its collection as it is now (the provider took a while; the
    // collection may have moved), or at the root when that collection is gone.
    const found = source.parent ? await collectionEntity.get({ collectionId: source.parent }, { consistent: true }) : undefined;
    const parent = found?.orgId === orgId ? found : undefined;
    const siblings = await listChildren(orgId, parent?.id);
    let position: string;
    try {
      position = positionAmong(siblings, '', { after: { type: 'space', space: source.id } });
    } catch {
      position = positionAmong(siblings, '', undefined);
    }
    const space = newSpace({
      orgId, createdBy: translation.createdBy, parent: parent?.id, ancestors: parent ? [...parent.ancestors, parent.id] : [], position,
      title: sliceChars(`${source.title} (${translation.language})`, 50), emoji: source.emoji, language: translation.language,
    });
    const first = await prepareRevision({ spaceId: space.id, manifest: content.manifest, parents: [], type: 'initial', createdBy: translation.createdBy });
    space.revision = first.revision.id;
    writes.push(
      spaceEntity.create({ spaceId: space.id }, space),
      first.put,
      ...(parent ? [placedUnder(parent, now)] : []),
    );
    resultSpaceId = space.id;
    revisionId = first.revision.id;
  }
  const translatedPages = [...new Set([...(translation.translatedPages ?? []), ...content.pagesSent])];
  const duration = Math.round((nowMs() - started) / 1000);
  const stats: TranslationStats = {
    runs: translation.stats.runs + 1,
    totalWords: translation.stats.totalWords + content.words,
    totalPages: translatedPages.length,
    totalDuration: translation.stats.totalDuration + duration,
    latestRunDuration: duration,
    latestPages: content.pagesSent.length,
    latestWords: content.words,
  };
  writes.push(translationEntity.update({ orgId, translationId }, {
    set: {
      status: 'completed', result: { space: resultSpaceId, revision: revisionId, language: translation.language },
      stats, translatedPages, sourceHashes, updatedAt: now,
    },
    remove: ['pendingRun', 'lastError', 'runAttempts'],
    if: (w) => w.eq('pendingRun', token),
  }));
  try {
    await transact(writes);
  } catch (error) {
    const current = await readTranslation(orgId, translationId);
    if (!current || current.pendingRun !== token) return; // deleted or superseded meanwhile: nothing to complete
    throw error;
  }
  // A new result space has no content to have updated (its creation is not an event here).
  if (existing) await emitOrganizationEvent(orgId, contentUpdated(resultSpaceId, revisionId));
}

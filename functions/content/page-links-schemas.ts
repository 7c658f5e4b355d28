import * as v from 'valibot';
import { id } from '../../shared/http/schemas.ts';

/** Path parameters of a page of a revision by id (.../revisions/{revisionId}/page/{pageId}/meta-links). */
export const revisionPageParams = v.object({ spaceId: id, revisionId: id, pageId: id });

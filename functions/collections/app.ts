import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';

/** The `collections` endpoint group. */
export const app = createGroupApp();

answerRemainingWith501(app, 'collections');

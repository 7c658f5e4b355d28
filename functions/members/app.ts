import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';

/** The `members` endpoint group. */
export const app = createGroupApp();

answerRemainingWith501(app, 'members');

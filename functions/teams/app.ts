import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';

/** The `teams` endpoint group. */
export const app = createGroupApp();

answerRemainingWith501(app, 'teams');

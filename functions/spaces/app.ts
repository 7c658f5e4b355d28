import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';

/** The `spaces` endpoint group. */
export const app = createGroupApp();

answerRemainingWith501(app, 'spaces');

import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';

/** The `integrations` endpoint group. Its operations answer 501 until their issue lands. */
export const app = createGroupApp();

answerRemainingWith501(app, 'integrations');

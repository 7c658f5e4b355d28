import type { GroupName } from '../../functions/catalogue.ts';
import type { GroupApp } from '../http/group-app.ts';
import { app as organizations } from '../../functions/organizations/app.ts';
import { app as members } from '../../functions/members/app.ts';
import { app as teams } from '../../functions/teams/app.ts';
import { app as collections } from '../../functions/collections/app.ts';
import { app as spaces } from '../../functions/spaces/app.ts';
import { app as content } from '../../functions/content/app.ts';
import { app as changeRequests } from '../../functions/change-requests/app.ts';
import { app as comments } from '../../functions/comments/app.ts';
import { app as openapi } from '../../functions/openapi/app.ts';
import { app as sites } from '../../functions/sites/app.ts';
import { app as sso } from '../../functions/sso/app.ts';
import { app as translations } from '../../functions/translations/app.ts';
import { app as conversations } from '../../functions/conversations/app.ts';
import { app as integrations } from '../../functions/integrations/app.ts';
import { app as git } from '../../functions/git/app.ts';

/** Every group's app, as its Lambda runs it. */
export const groupApps: Record<GroupName, GroupApp> = {
  organizations, members, teams, collections, spaces, content,
  'change-requests': changeRequests, comments, openapi, sites, sso, translations, conversations, integrations, git,
};

import { createGroupApp } from '../../shared/http/group-app.ts';
import { answerRemainingWith501 } from '../../shared/http/not-implemented.ts';
import { mountSites } from './sites.ts';
import { mountSiteSpaces } from './site-spaces.ts';
import { mountSections } from './sections.ts';
import { mountSectionGroups } from './section-groups.ts';
import { mountShareLinks } from './share-links.ts';

/**
 * Docs sites (spec 4.7 to 4.11): sites, site spaces, sections, section groups and share
 * links. A site and everything it holds live in its `SITE#<id>` partition; structure
 * writes go through changeSite (shared/commands/sites-structure.ts).
 */
export const app = createGroupApp();

mountSites(app);
mountSiteSpaces(app);
mountSections(app);
mountSectionGroups(app);
mountShareLinks(app);

answerRemainingWith501(app, 'sites');

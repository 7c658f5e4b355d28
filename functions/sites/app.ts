import { groupApp, operationRoutes } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { mountSites } from './sites.ts';
import { mountSiteSpaces } from './site-spaces.ts';
import { mountSections } from './sections.ts';
import { mountSectionGroups } from './section-groups.ts';
import { mountShareLinks } from './share-links.ts';
import { mountUnpublish } from './unpublish.ts';
import { mountSiteSearch } from './search.ts';
import { mountCustomization } from './customization.ts';

/**
 * Docs sites (spec 4.7 to 4.11): sites, site spaces, sections, section groups and share
 * links. A site and everything it holds live in its `SITE#<id>` partition; structure
 * writes go through changeSite (shared/commands/sites-structure.ts).
 */
export const app = groupApp(op.group, operationRoutes(mountSites), operationRoutes(mountSiteSpaces), operationRoutes(mountSections), operationRoutes(mountSectionGroups), operationRoutes(mountShareLinks), operationRoutes(mountUnpublish), operationRoutes(mountSiteSearch), operationRoutes(mountCustomization));

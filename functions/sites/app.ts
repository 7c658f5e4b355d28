import { groupApp } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { sitesRoutes } from './sites.ts';
import { siteSpacesRoutes } from './site-spaces.ts';
import { sectionsRoutes } from './sections.ts';
import { sectionGroupsRoutes } from './section-groups.ts';
import { shareLinksRoutes } from './share-links.ts';
import { unpublishRoutes } from './unpublish.ts';
import { siteSearchRoutes } from './search.ts';
import { customizationRoutes } from './customization.ts';

/**
 * Docs sites (spec 4.7 to 4.11): sites, site spaces, sections, section groups and share
 * links. A site and everything it holds live in its `SITE#<id>` partition; structure
 * writes go through changeSite (shared/commands/sites/change.ts).
 */
export const app = groupApp(op.group, sitesRoutes, siteSpacesRoutes, sectionsRoutes, sectionGroupsRoutes, shareLinksRoutes, unpublishRoutes, siteSearchRoutes, customizationRoutes);

import { operationGroup } from '../../shared/http/declare.ts';
import { exportBody, importBody, spaceParams } from './schemas.ts';
import { gitInfoSchema } from '../../shared/presenters/schemas/git-info.ts';

/** The git group's operations (spec 4.19), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('git', '4.19');

export const importGitRepository = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/git/import',
  operationId: 'importGitRepository',
  summary: 'Import content into a space from a Git repository.',
  role: 'edit',
  params: spaceParams,
  body: importBody,
  responses: {
    204: { description: 'Done, no content' },
  },
});

export const exportToGitRepository = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/git/export',
  operationId: 'exportToGitRepository',
  summary: 'Export a space\'s content to a Git repository.',
  role: 'edit',
  params: spaceParams,
  body: exportBody,
  responses: {
    204: { description: 'Done, no content' },
  },
});

export const getSpaceGitInfo = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/git/info',
  operationId: 'getSpaceGitInfo',
  summary: 'Get the Git sync information of a space.',
  role: 'read',
  params: spaceParams,
  responses: {
    200: { description: 'Success', schema: gitInfoSchema },
  },
});

export const deleteLegacyGitInstallation = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}/git/legacy-installation',
  operationId: 'deleteLegacyGitInstallation',
  summary: 'Remove a space\'s legacy Git sync installation.',
  role: 'edit',
  params: spaceParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

// The standards catalogue (/api/standards/…, docs/adr/012-standards.md): a district admin imports a
// CASE framework (the package as the body, up to STANDARDS_PACKAGE_LIMIT_BYTES, or a provider's
// URL); teachers and admins list the frameworks their district sees and search their items.
import { ApiRouter, type LargeBody } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { StandardsUseCases } from '../domain/standards.use-case.ts';
import {
  frameworkSchema,
  importFrameworkBody,
  importResultSchema,
  searchQuery,
  standardItemSchema,
} from './standards.schemas.ts';

const ADMIN = ['admin'] as const;
const TEACHERS = ['teacher', 'admin'] as const;
export const FRAMEWORKS_PATH = '/api/standards/frameworks';

/** The import's body has a limit of its own: a state's framework is several MB of JSON. */
export const frameworkUploadBody = (limitBytes: number): LargeBody => ({
  method: 'post',
  path: FRAMEWORKS_PATH,
  limitBytes,
});

export function standardsRouter(uc: StandardsUseCases, packageLimitBytes: number): ApiRouter {
  const router = new ApiRouter()
    .add(
      {
        method: 'post',
        path: FRAMEWORKS_PATH,
        summary:
          'Import a CASE 1.0/1.1 framework for the district: a CFPackage as the body, or {url} of one at a CASE provider. 201 when new, 200 when it updates the district’s framework of the same CFDocument (items by identifier; those no longer in the package are withdrawn)',
        access: ADMIN,
        body: importFrameworkBody,
        status: 201,
        response: importResultSchema,
        errors: [413],
      },
      async ({ caller, body, res }) => {
        const importer = { tenantId: caller.tenantId, userId: caller.userId };
        const done =
          'url' in body ? await uc.importFromUrl(importer, body.url) : await uc.importPackage(importer, body.package);
        const result = { framework: done.framework, counts: done.counts };
        if (!done.created) {
          res.status(200).json(result);
          return undefined;
        }
        return result;
      },
    )
    .add(
      {
        method: 'get',
        path: FRAMEWORKS_PATH,
        summary: 'The frameworks the caller’s district sees: its own and the platform’s',
        access: TEACHERS,
        response: z.array(frameworkSchema),
      },
      ({ caller }) => uc.listFrameworks(caller.tenantId),
    )
    .add(
      {
        method: 'get',
        path: '/api/standards/search',
        summary:
          'Standards of those frameworks (not withdrawn): code prefix matches first, then statements matching the words, best first',
        access: TEACHERS,
        query: searchQuery,
        response: z.array(standardItemSchema),
      },
      ({ caller, query }) => uc.search(caller.tenantId, query),
    );
  // A re-import answers 200 with the same body; the package's size has its own limit.
  const post = router.paths[FRAMEWORKS_PATH]?.post;
  if (post?.responses) {
    post.responses['200'] = { ...post.responses['201'], description: 'The district’s framework, updated' };
    const tooLarge = post.responses['413'];
    if (tooLarge && 'description' in tooLarge)
      tooLarge.description = `Package above ${packageLimitBytes} bytes (STANDARDS_PACKAGE_LIMIT_BYTES)`;
  }
  return router;
}

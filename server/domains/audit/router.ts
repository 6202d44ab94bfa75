import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';
import { auditPageOutput, auditQueryInput } from './schemas';
import { listAudit } from './service';
import { docs } from './docs';

export const auditRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/audit',
        access: { kind: 'scope', scope: 'admin:read', admin: true },
        tag: 'Audit',
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(auditQueryInput)
    .output(auditPageOutput)
    .query(({ input }) => listAudit(input)),
});

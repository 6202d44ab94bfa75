import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';
import { auditPageOutput, auditQueryInput } from './schemas';
import { listAudit } from './service';

export const auditRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/audit',
        access: { kind: 'scope', scope: 'admin:read', admin: true },
        tag: 'Audit',
        summary: { en: 'Read the audit log', fr: 'Consulter le journal d’audit' },
        description: {
          en: 'Entries most recent first, filtered by `action`, `actor` (member id) and `since`; cursor pagination (`limit` 1-200, default 50).',
          fr: 'Entrées des plus récentes aux plus anciennes, filtrées par `action`, `actor` (id du membre) et `since` ; pagination par curseur (`limit` 1-200, 50 par défaut).',
        },
      }),
    )
    .input(auditQueryInput)
    .output(auditPageOutput)
    .query(({ input }) => listAudit(input)),
});

/**
 * GET /api/v1/tables/{id}/export.csv — a download, so a plain route rather than a JSON procedure; it
 * runs the same authentication, rate limit and scope check (`tables:read`) as every other route,
 * and takes the rows query's view parameters (`q`, `filter`, `match`, `sort`, `dir`) checked by the
 * same schema.
 */
import { authorize } from '../core/auth/access';
import { resolveActor } from '../core/auth/authenticate';
import { appError, toAppError } from '../core/errors/app-error';
import { simplifyIssue } from '../core/errors/zod-issues';
import { exportQueryInput } from '../domains/tables/csv/schemas';
import { openTableExport } from '../domains/tables/csv/service';

function viewOf(request: Request) {
  const parsed = exportQueryInput.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    throw appError('request.bad_request', {
      details: { issues: parsed.error.issues.map(simplifyIssue) },
    });
  }
  return parsed.data;
}

export const tableExportAccess = { kind: 'scope', scope: 'tables:read' } as const;

export async function handleTableExport(request: Request, ref: string): Promise<Response> {
  try {
    const actor = await resolveActor(request.headers);
    if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
    authorize(tableExportAccess, actor);
    const { table, chunks } = await openTableExport(actor, ref, viewOf(request));
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${table.slug}.csv"`,
        'cache-control': 'no-store',
      },
    });
  } catch (error) {
    const appErr = toAppError(error);
    return Response.json(appErr.toBody(), { status: appErr.status, headers: appErr.headers });
  }
}

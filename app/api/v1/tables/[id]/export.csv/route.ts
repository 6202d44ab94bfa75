import { handleTableExport } from '@/server/http/table-export-route';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  return handleTableExport(request, (await context.params).id);
}

import { handleReadyz } from '@/server/http/health';

export const dynamic = 'force-dynamic';
export const GET = handleReadyz;

import { handleHealthz } from '@/server/http/health';

export const dynamic = 'force-dynamic';
export const GET = handleHealthz;

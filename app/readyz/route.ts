import { handleApiRequest } from '@/server/http/api-handler';

export const dynamic = 'force-dynamic';
export const GET = handleApiRequest;

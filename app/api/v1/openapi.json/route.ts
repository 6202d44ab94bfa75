import { handleOpenApiRequest } from '@/server/http/openapi-route';

export const dynamic = 'force-dynamic';
export const GET = handleOpenApiRequest;

import { handleRestRequest } from '@/server/http/rest-handler';

export const dynamic = 'force-dynamic';
export const GET = handleRestRequest;
export const POST = handleRestRequest;
export const PUT = handleRestRequest;
export const PATCH = handleRestRequest;
export const DELETE = handleRestRequest;

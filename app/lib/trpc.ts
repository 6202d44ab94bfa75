'use client';

/**
 * The UI's typed tRPC client (TanStack Query integration). Only the router's type crosses from
 * server/ into the browser bundle.
 */
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/root';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type Member = RouterOutputs['auth']['me']['member'];
export type ApiKey = RouterOutputs['apiKeys']['list']['keys'][number];
export type Invitation = RouterOutputs['members']['listInvitations']['invitations'][number];
export type AuditEntry = RouterOutputs['audit']['list']['entries'][number];

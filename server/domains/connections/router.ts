import { uuidParam } from '../../core/http/schemas';
import { inputErrorsAs } from '../../trpc/middleware/input-errors-as';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  connectionListOutput,
  connectionOutput,
  createConnectionInput,
  createConnectionOutput,
  deleteConnectionOutput,
  listConnectionsInput,
  memberKeysSettingsOutput,
  updateConnectionInput,
} from './schemas';
import { connectionTestOutput } from '../llm';
import { memberKeysSettings, testMemberKey } from './llm-provider';
import { createConnection, deleteConnection, listConnections, updateConnection } from './service';
import { docs } from './docs';

const tag = 'Connections';
const read = { kind: 'scope', scope: 'connections:read' } as const;
const write = { kind: 'scope', scope: 'connections:write' } as const;
/** The spec's connection routes answer their own code for input that does not match. */
const connectionProcedure = procedure.use(inputErrorsAs('credential.bad_request'));

export const connectionsRouter = router({
  list: connectionProcedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/credentials',
        access: read,
        errors: ['credential.bad_request'],
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listConnectionsInput)
    .output(connectionListOutput)
    .query(({ ctx, input }) => listConnections(actorOf(ctx), input)),

  create: connectionProcedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/credentials',
        access: write,
        idempotent: true,
        status: 201,
        errors: ['credential.bad_request', 'credential.admin_required', 'credential.encryption_disabled', 'credential.llm_member_keys_disabled', 'llm.invalid_base_url'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createConnectionInput)
    .output(createConnectionOutput)
    .mutation(({ ctx, input }) => createConnection(actorOf(ctx), input, ctx.ip)),

  update: connectionProcedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/credentials/{id}',
        access: write,
        errors: ['credential.bad_request', 'credential.admin_required', 'credential.encryption_disabled', 'credential.llm_member_keys_disabled', 'llm.invalid_base_url'],
        tag,
        summary: docs.update.summary,
        description: docs.update.description,
      }),
    )
    .input(updateConnectionInput)
    .output(connectionOutput)
    .mutation(({ ctx, input }) => updateConnection(actorOf(ctx), input, ctx.ip)),

  delete: connectionProcedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/credentials/{id}',
        access: write,
        errors: ['credential.bad_request', 'credential.admin_required', 'credential.in_use'],
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(uuidParam)
    .output(deleteConnectionOutput)
    .mutation(({ ctx, input }) => deleteConnection(actorOf(ctx), input.id, ctx.ip)),

  memberKeys: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/llm-member-keys',
        access: read,
        tag,
        summary: docs.memberKeys.summary,
        description: docs.memberKeys.description,
      }),
    )
    .output(memberKeysSettingsOutput)
    .query(() => memberKeysSettings()),

  test: connectionProcedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/credentials/{id}/test',
        access: write,
        throttle: { bucket: 'connection_checks' },
        errors: ['credential.bad_request', 'credential.llm_member_keys_disabled'],
        tag,
        summary: docs.test.summary,
        description: docs.test.description,
      }),
    )
    .input(uuidParam)
    .output(connectionTestOutput)
    .mutation(({ ctx, input }) => testMemberKey(actorOf(ctx), input.id, ctx.ip)),
});

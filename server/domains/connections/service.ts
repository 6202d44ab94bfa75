/**
 * Connections (credentials): secrets the member or the organisation stores for workflows and
 * integrations. The secret is sealed under the instance key with the connection's id as its purpose
 * (`credential:<id>`), never returned, never logged, never audited; only a hint of at most four
 * characters is kept in clear for `http_generic` secrets.
 *
 * Rules: `org` connections are created, changed and deleted by administrators only (403
 * `credential.admin_required`), and read by every member. `imap` connections and OAuth grants are
 * written by their own flows (IMAP connect, OAuth callback): listed here, deletable when no mailbox
 * uses them, never renamed or given a secret here (400 `credential.bad_request`, `details.reason`
 * `read_only`).
 *
 * `llm_provider` connections (a member's own AI key, ./llm-provider.ts) exist only when the instance
 * allows them (`LLM_MEMBER_KEYS=1`, else 403 `credential.llm_member_keys_disabled`), only for the
 * member themself (`scope` member), and their base URL passes llm's check (400 `llm.invalid_base_url`).
 * Their provider (not a secret) is kept in clear as `integration`, so the settings page can show it.
 *
 * `http_generic` connections carry the hosts their secret may be sent to (`allowedHosts`, required for
 * `org` ones; ./hosts.ts), and where the secret travels (`sentAs`, a header or parameter name).
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { requireEncryption, sealJson } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { simplifyIssue } from '../../core/errors/zod-issues';
import type { Credential } from '../../generated/prisma/client';
import { hostsForCreate, hostsForUpdate, sentAsOf } from './hosts';
import { presentConnection } from './present';
import { deleteCredential, findMailboxUsing, findVisible, findVisibleOrThrow, insertCredential, updateCredential } from './repo';
import type { CreateConnectionInput, UpdateConnectionInput } from './schemas';
import { checkedLlmProviderData } from './llm-provider';
import { dataSchemaFor, hintOf, httpGenericType, kindOf, llmProviderType, managedTypes, type LlmProviderData, type SecretData } from './secret-data';

export async function listConnections(actor: AuthenticatedActor, query: { type?: string }) {
  const rows = await findVisible(actor.member.id, query.type);
  return { items: rows.map(presentConnection) };
}

function isAdmin(actor: AuthenticatedActor): boolean {
  return actor.member.role === 'admin';
}

function refuseManaged(type: string, reason: 'managed_type' | 'read_only'): never {
  throw appError('credential.bad_request', {
    message: reason === 'managed_type' ? `Connections of type ${type} are created by their own flow (mailbox or OAuth connection), not here.` : `Connections of type ${type} are read-only here.`,
    details: { reason, type },
  });
}

/** The stored forms of a secret: sealed text, kind, hint and where it travels (and an `llm_provider` key's provider, shown as `integration`). */
function sealed(id: string, type: string, data: SecretData) {
  return {
    dataEnc: sealJson(data, `credential:${id}`),
    kind: kindOf(type, data),
    hint: hintOf(type, data),
    sentAs: sentAsOf(type, data),
    ...(type === llmProviderType ? { integration: (data as LlmProviderData).provider } : {}),
  };
}

export async function createConnection(actor: AuthenticatedActor, input: CreateConnectionInput, ip: string | null) {
  if (managedTypes.has(input.type)) refuseManaged(input.type, 'managed_type');
  if (input.scope === 'org' && !isAdmin(actor)) throw appError('credential.admin_required');
  const allowedHosts = hostsForCreate(input.type, input.scope, input.allowedHosts);
  let data = input.data as SecretData;
  if (input.type === llmProviderType) data = await checkedLlmProviderData(input.scope, data as LlmProviderData);
  requireEncryption('credential.encryption_disabled');
  // The id is the secret's purpose, so it exists before the secret is sealed.
  const id = randomUUID();
  return db().$transaction(async (tx) => {
    await insertCredential(tx, { id, memberId: actor.member.id, scope: input.scope, type: input.type, name: input.name, allowedHosts, ...sealed(id, input.type, data) });
    await recordAudit(
      auditByOf(actor),
      { action: 'credential.created', targetKind: 'credential', targetId: id, details: { name: input.name, type: input.type, scope: input.scope, ...(allowedHosts.length > 0 ? { allowedHosts } : {}) }, ip },
      tx,
    );
    return { id };
  });
}

/** The new secret of an update, checked against the connection's type (400 `credential.bad_request` with the issues). */
function checkedData(type: string, data: unknown): SecretData {
  const parsed = dataSchemaFor(type).safeParse(data);
  if (parsed.success) return parsed.data;
  throw appError('credential.bad_request', {
    message:
      type === httpGenericType
        ? 'An http_generic secret is one of the kinds apiKey, bearer, basic or query.'
        : type === llmProviderType
          ? 'An llm_provider secret is {provider, apiKey, baseUrl}.'
          : 'The secret is a map of strings.',
    details: { issues: parsed.error.issues.map((issue) => simplifyIssue({ ...issue, path: ['data', ...issue.path] })) },
  });
}

/** May this actor change or delete this connection? Org connections are the administrators’. */
function assertWritable(actor: AuthenticatedActor, row: Credential): void {
  if (row.scope === 'org' && !isAdmin(actor)) throw appError('credential.admin_required');
}

export async function updateConnection(actor: AuthenticatedActor, input: UpdateConnectionInput, ip: string | null) {
  // The base URL check resolves a host name: done before the transaction, on the member's own row.
  let data: SecretData | null = null;
  if (input.data !== undefined) {
    const row = await findVisibleOrThrow(actor.member.id, input.id);
    if (managedTypes.has(row.type)) refuseManaged(row.type, 'read_only');
    assertWritable(actor, row);
    data = checkedData(row.type, input.data);
    if (row.type === llmProviderType) data = await checkedLlmProviderData(row.scope, data as LlmProviderData);
  }
  return db().$transaction(async (tx) => {
    const row = await findVisibleOrThrow(actor.member.id, input.id, tx);
    if (managedTypes.has(row.type)) refuseManaged(row.type, 'read_only');
    assertWritable(actor, row);
    const allowedHosts = hostsForUpdate(row.type, input.allowedHosts);
    if (data) requireEncryption('credential.encryption_disabled');
    const updated = await updateCredential(tx, row.id, { name: input.name, ...(allowedHosts ? { allowedHosts } : {}), ...(data ? sealed(row.id, row.type, data) : {}) });
    await recordAudit(
      auditByOf(actor),
      {
        action: 'credential.updated',
        targetKind: 'credential',
        targetId: row.id,
        details: { name: updated.name, type: row.type, scope: row.scope, secretReplaced: data !== null, ...(allowedHosts ? { allowedHosts } : {}) },
        ip,
      },
      tx,
    );
    return { credential: presentConnection(updated) };
  });
}

export async function deleteConnection(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const row = await findVisibleOrThrow(actor.member.id, id, tx);
    assertWritable(actor, row);
    const mailbox = await findMailboxUsing(row.id, tx);
    if (mailbox) {
      throw appError('credential.in_use', {
        message: `The mailbox ${mailbox.address} uses this connection. Disconnect the mailbox first.`,
        details: { mailboxId: mailbox.id, address: mailbox.address },
      });
    }
    await deleteCredential(tx, row.id);
    await recordAudit(
      auditByOf(actor),
      { action: 'credential.deleted', targetKind: 'credential', targetId: row.id, details: { name: row.name, type: row.type, scope: row.scope }, ip },
      tx,
    );
    return { id: row.id, deleted: true as const };
  });
}

/**
 * The real capabilities handed to executors, for one step of one run. Every effectful one is keyed
 * by the engine's prefix (`<executionId>:<nodeId>`, stable across the step's attempts) plus the
 * node's own key, so a retry finds what a first attempt did. In a test run (`simulated`) the
 * effectful ones do nothing and answer plausible placeholders; reads (messages, rows) still read,
 * but no connection's secret is ever opened.
 *
 * - mail.thread: a thread read as a conversation (server/domains/mail/threads/conversation.ts: directions
 *   by the mailbox's own address, the last inbound and outbound messages, awaiting a reply); a read, so the
 *   same in a test run.
 * - mail.attachmentTexts: the attachments' text for the AI nodes (server/domains/mail/attachments/
 *   attachment-text.ts: the download path, PDFs read on the PDF pool's thread); a read, so the same
 *   in a test run.
 * - mail.operate: the webmail's own single-message action (server/domains/mail/threads/actions),
 *   with the effect key as its client token: one MailOperation, applied to the mirror, the
 *   `mail.apply-operations` job enqueued, in one transaction; a repeat answers `duplicate: true`.
 * - contacts: ./contacts.ts (the address book's resolution for the run's member; reads only, the same
 *   in a test run).
 * - send: ./send.ts (mail.draft, mail.send: one outbound item through createOutbound, keyed by the
 *   effect key; in a test run `prepare` still reads and checks, `create` is never called).
 * - tables: the tables engine API (its effect store makes writes at most once per key).
 * - http: ./http.ts (the network guard and HTTP_NODE_ALLOW_HOSTS), with the member's (or the
 *   organisation's) `http_generic` connections put on requests by the capability (./http-credential.ts):
 *   executors never receive a secret, and a test run never opens one.
 * - notify: a `workflow.notice` notification to the run's member.
 * - signal: a MessageSignal row, unique per message and name (a repeat answers `created: false`).
 * - ai: ./ai.ts (routing, budgets, the model call, usage records; simulated runs call no model unless asked).
 * - approvals: server/domains/approvals/engine-api.ts (the Approval row, its link, notification and
 *   email, idempotent on the run and node); a test run asks for nothing (the node does not call it).
 */
import { createHash } from 'node:crypto';
import { db } from '../core/db';
import { isUniqueViolation } from '../core/db/sql-state';
import { AppError, appError } from '../core/errors/app-error';
import { expireApproval, requestApproval } from '../domains/approvals/engine-api';
import { attachmentTextsOf } from '../domains/mail/attachments/engine-api';
import { actOnMessage, checkMessageAction, conversationOf, type ThreadAction } from '../domains/mail/threads/engine-api';
import { notify } from '../domains/notifications/engine-api';
import { checkRowWrite, insertRow, lookupByKey, updateRow, upsertRow, type ExecutionWriter } from '../domains/tables/rows/engine-api';
import { quotedValue } from '../core/quoted-value';
import { bodyTextOf } from '../mail/body-text';
import { isUuid } from '../core/ids';
import { fail, NodeFailure } from '../engine/contract/failures';
import { createAiCapability } from './ai';
import { createContactsCapability } from './contacts';
import { createHttpCapability, type HttpCapabilityOptions } from './http';
import { fillListedRowsOfThread } from './listed-thread';
import { databaseCredentialSource } from './http-credential';
import { createSendCapability } from './send';
import type { CapabilityRun } from '../engine';
import type { Capabilities, MailCapability, TablesCapability } from '../engine/contract/capabilities';

export type { CapabilityRun };

/** What the composition root may pass on (tests: fake DNS, allowed hosts, the fake AI vendors' network). */
export type CapabilityOptions = Pick<HttpCapabilityOptions, 'lookup' | 'allowHosts'> & { aiNet?: Parameters<typeof createAiCapability>[0]['net'] };

/** A client token for a mail operation: [A-Za-z0-9._:-], at most 128 characters. */
export function clientTokenOf(effectKey: string): string {
  const plain = effectKey.replace(/[^A-Za-z0-9._:-]/g, '_');
  return plain === effectKey && plain.length >= 8 && plain.length <= 128 ? plain : `wf:${createHash('sha256').update(effectKey).digest('hex')}`;
}

/** A table effect key of at most 500 characters. */
export function tableEffectKeyOf(effectKey: string): string {
  return effectKey.length <= 500 ? effectKey : `wf:${createHash('sha256').update(effectKey).digest('hex')}`;
}

const threadActionOf: Record<Parameters<MailCapability['operate']>[0]['action'], ThreadAction | undefined> = {
  markRead: 'markRead',
  markUnread: 'markUnread',
  flag: 'flag',
  unflag: 'unflag',
  archive: 'archive',
  trash: 'trash',
  move: 'move',
  label: undefined,
};

/** Why the mailbox refused a message action, as a sentence naming the parameter concerned. */
function refusalSentence(reason: unknown, details: Record<string, unknown>, folder: string | undefined): { message: string; path: string | null } | null {
  const named = quotedValue(folder ?? details.folder ?? details.role ?? '');
  switch (reason) {
    case 'unknown_folder':
    case 'no_folder':
      return { message: `params.folder: the message’s mailbox has no folder “${named}”.`, path: 'params.folder' };
    case 'virtual_folder':
      return { message: `params.folder: “${named}” is a view, not a folder a message can be moved to.`, path: 'params.folder' };
    case 'folder_required':
      return { message: 'params.folder: a move needs the folder to move the message to.', path: 'params.folder' };
    case 'already_there':
      return { message: `params.folder: the message is already in “${named}”.`, path: 'params.folder' };
    default:
      return null;
  }
}

/**
 * A mailbox's refusal as the step's error, the same live and in a test run (`operate` and `check`
 * share it): the message not in the member's mirror, the mailbox disconnected, or an action the
 * mailbox cannot take, named in words with the parameter in `details.path`.
 */
function mailFailure(error: unknown, input: { messageId: string; folder?: string }): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === 'webmail.message_not_found' || error.code === 'webmail.thread_not_found') {
    return fail.permanent('mail.message_not_found', { message: `The message “${quotedValue(input.messageId)}” is not in your mailboxes’ mirror (deleted, moved away, or not yours).`, details: { path: 'params.messageId' } });
  }
  if (error.details.reason === 'mailbox_disconnected') return fail.permanent('mail.mailbox_not_active', { message: 'The message’s mailbox is not connected: reconnect it in Mailboxes.' });
  const sentence = refusalSentence(error.details.reason, error.details, input.folder);
  return fail.permanent('invalid_parameter', {
    message: sentence?.message ?? error.message,
    details: { reason: error.details.reason ?? null, code: error.code, ...(sentence?.path ? { path: sentence.path } : {}) },
  });
}

/**
 * A table's refusal as the step's error, the same live and in a test run: `tables.write_refused`
 * whose message is the table's sentence (it names the column, the value and why) and whose details
 * keep the table's code, the first column concerned and every problem.
 */
function tablesFailure(error: unknown, tableId: string): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === 'tables.not_found') return fail.permanent('tables.not_found', { message: `No table “${quotedValue(tableId)}”: it was deleted, or the id is wrong.`, details: { tableId: quotedValue(tableId) } });
  const problems = Array.isArray(error.details.problems) ? (error.details.problems as { column?: unknown }[]) : [];
  const column = typeof problems[0]?.column === 'string' ? problems[0].column : typeof error.details.column === 'string' ? error.details.column : null;
  return fail.permanent('tables.write_refused', { message: error.message, details: { code: error.code, column, ...error.details } });
}

function requiredRowId(rowId: string | undefined): string {
  if (!rowId) throw fail.permanent('invalid_parameter', { message: 'params.rowId: an update needs the row id.', details: { path: 'params.rowId' } });
  return rowId;
}

/** HTML characters read of a message with no text body, to reduce to the AI's context (it keeps at most a few thousand). */
const contextHtmlChars = 256 * 1024;

/**
 * The start of the HTML body of these messages (those with no plain-text body, such as an HTML message
 * with an attachment: mailparser gives it no text), by id; the AI context reduces it to text.
 */
async function htmlOnlyBodies(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db().$queryRaw<{ id: string; html: string | null }[]>`
    SELECT id, left(body_html, ${contextHtmlChars}::int) AS html FROM mail_messages WHERE id = ANY(${ids}::uuid[]) AND body_html IS NOT NULL`;
  return new Map(rows.flatMap((row) => (row.html === null ? [] : [[row.id, row.html] as const])));
}

async function memberMessage(memberId: string, messageId: string) {
  return db().mailMessage.findFirst({
    where: { id: messageId, mailbox: { memberId } },
    select: { id: true, mailboxId: true, threadId: true, subject: true, fromName: true, fromEmail: true, folderKey: true, receivedAt: true },
  });
}

export function createCapabilities(run: CapabilityRun, options: CapabilityOptions = {}): Capabilities {
  const keyOf = (key: string) => `${run.effectKeyPrefix}:${key}`;
  const { executionId } = run.actor;
  const memberId = run.actor.member.id;
  const writer: ExecutionWriter = { kind: 'execution', executionId: executionId, memberId: memberId };
  const checkMail: MailCapability['check'] = async (input) => {
    try {
      if (!isUuid(input.messageId)) throw appError('webmail.message_not_found');
      await checkMessageAction(memberId, { messageId: input.messageId, action: threadActionOf[input.action], folder: input.folder, labels: input.labels });
    } catch (error) {
      throw mailFailure(error, input);
    }
  };

  const checkTableWrite: TablesCapability['check'] = async (input) => {
    try {
      const operation = input.op === 'update' ? { op: input.op, id: requiredRowId(input.rowId), cells: input.cells } : { op: input.op, cells: input.cells };
      const checked = await checkRowWrite(input.tableId, operation);
      return { row: null, replayed: false, simulated: true, ...checked };
    } catch (error) {
      if (error instanceof NodeFailure) throw error;
      throw tablesFailure(error, input.tableId);
    }
  };

  return {
    mail: {
      async findMessage(messageId) {
        if (!isUuid(messageId)) return null;
        const message = await memberMessage(memberId, messageId);
        return message ? { ...message, receivedAt: message.receivedAt.toISOString() } : null;
      },
      async threadContext(input) {
        if (!isUuid(input.messageId)) return [];
        const message = await memberMessage(memberId, input.messageId);
        if (!message) return [];
        await fillListedRowsOfThread(memberId, message.id, Math.min(input.limit, 20));
        const rows = await db().mailMessage.findMany({
          where: message.threadId ? { threadId: message.threadId, mailboxId: message.mailboxId, receivedAt: { lte: message.receivedAt } } : { id: message.id },
          orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
          take: Math.max(1, Math.min(input.limit, 20)),
          select: { id: true, fromName: true, fromEmail: true, subject: true, receivedAt: true, bodyText: true, snippet: true },
        });
        const htmlOf = await htmlOnlyBodies(rows.filter((row) => row.bodyText === null || row.bodyText.trim() === '').map((row) => row.id));
        return rows.reverse().map((row) => ({
          fromName: row.fromName,
          fromEmail: row.fromEmail,
          subject: row.subject,
          receivedAt: row.receivedAt.toISOString(),
          text: (bodyTextOf({ text: row.bodyText, html: htmlOf.get(row.id) ?? null }, input.maxChars * 4)?.text ?? row.snippet ?? '').slice(0, input.maxChars),
        }));
      },
      async classify(input) {
        if (!isUuid(input.messageId)) return false;
        if (run.simulated) return (await memberMessage(memberId, input.messageId)) !== null;
        const entry = JSON.stringify({ [input.key]: input.value });
        // The thread carries its latest message's classification too (the spec's Thread field), so the
        // thread list shows it without reading every message.
        const [row] = await db().$queryRaw<{ messages: number }[]>`
          WITH classified AS (
            UPDATE mail_messages SET classification = classification || ${entry}::jsonb, updated_at = now()
            WHERE id = ${input.messageId}::uuid AND mailbox_id IN (SELECT id FROM mailboxes WHERE member_id = ${memberId}::uuid)
            RETURNING thread_id
          ), threads AS (
            UPDATE mail_threads SET classification = classification || ${entry}::jsonb, updated_at = now()
            WHERE id IN (SELECT thread_id FROM classified) RETURNING id
          )
          SELECT (SELECT count(*) FROM classified)::int AS messages, (SELECT count(*) FROM threads)::int AS threads`;
        return (row?.messages ?? 0) > 0;
      },
      async attachmentTexts(input) {
        if (!isUuid(input.messageId)) return null;
        return attachmentTextsOf(run.actor, input.messageId, input.bounds);
      },
      async thread(input) {
        if (!isUuid(input.messageId)) return null;
        await fillListedRowsOfThread(memberId, input.messageId, input.limit);
        return conversationOf(memberId, input.messageId, input.limit);
      },
      check: checkMail,
      async operate(input) {
        if (run.simulated) {
          // Never acts in a test run; the node asks `check` instead (this answers the same if called).
          await checkMail(input);
          return { operationId: 'simulated', duplicate: false };
        }
        try {
          if (!isUuid(input.messageId)) throw appError('webmail.message_not_found');
          return await actOnMessage(memberId, {
            messageId: input.messageId,
            action: threadActionOf[input.action],
            folder: input.folder,
            labels: input.labels,
            clientToken: clientTokenOf(keyOf(input.effectKey)),
          });
        } catch (error) {
          throw mailFailure(error, input);
        }
      },
    },
    contacts: createContactsCapability(memberId),
    send: (() => {
      const send = createSendCapability({ memberId, executionId, keyOf });
      return {
        prepare: send.prepare,
        async create(input) {
          if (run.simulated) throw new Error('A test run writes no outbound message.');
          return send.create(input);
        },
      };
    })(),
    tables: {
      async lookup(input) {
        try {
          const { row } = await lookupByKey(input.tableId, input.key);
          return row as unknown as Record<string, unknown> | null;
        } catch (error) {
          throw tablesFailure(error, input.tableId);
        }
      },
      check: checkTableWrite,
      async write(input) {
        if (run.simulated) {
          // Never writes in a test run; the nodes ask `check` instead, and a write asked anyway is checked the same way.
          const checked = await checkTableWrite(input);
          return { row: { id: 'simulated', cells: checked.cells } as never, replayed: false, ...(input.op === 'upsert' ? { created: checked.created ?? true } : {}) };
        }
        const effectKey = tableEffectKeyOf(keyOf(input.effectKey));
        try {
          if (input.op === 'insert') return await insertRow(input.tableId, input.cells, writer, effectKey);
          if (input.op === 'upsert') return await upsertRow(input.tableId, input.cells, writer, effectKey);
          return await updateRow(input.tableId, requiredRowId(input.rowId), input.cells, writer, effectKey);
        } catch (error) {
          if (error instanceof NodeFailure) throw error;
          throw tablesFailure(error, input.tableId);
        }
      },
    },
    http: createHttpCapability({ simulated: run.simulated, credentials: databaseCredentialSource(memberId), ...options }),
    notify: {
      async owner(input) {
        if (run.simulated) return { id: 'simulated' };
        const execution = await db().execution.findUnique({ where: { id: executionId }, select: { workflowId: true } });
        const workflow = execution ? await db().workflow.findUnique({ where: { id: execution.workflowId }, select: { name: true } }) : null;
        return notify({
          memberId: memberId,
          kind: 'workflow.notice',
          severity: input.severity,
          params: {
            workflowId: execution?.workflowId ?? '',
            workflowName: workflow?.name ?? '',
            executionId: executionId,
            title: input.title.slice(0, 120),
            body: input.body.slice(0, 1_000),
          },
          link: input.link ?? `/executions/${executionId}`,
        });
      },
    },
    signal: {
      async mark(input) {
        const message = isUuid(input.messageId) ? await memberMessage(memberId, input.messageId) : null;
        if (!message) throw fail.permanent('mail.message_not_found');
        if (run.simulated) return { created: true };
        try {
          await db().messageSignal.create({ data: { messageId: message.id, threadId: message.threadId, name: input.name, executionId: executionId } });
          return { created: true };
        } catch (error) {
          if (isUniqueViolation(error)) return { created: false };
          throw error;
        }
      },
    },
    approvals: {
      async request(input) {
        if (run.simulated) return { approvalId: 'simulated', status: 'approved', decidedBy: null, reason: null, expiresAt: input.expiresAt.toISOString() };
        return requestApproval({ executionId, memberId }, input);
      },
      async expire(input) {
        if (run.simulated) return { approvalId: 'simulated', status: 'expired', decidedBy: null, reason: 'expired', expiresAt: new Date().toISOString() };
        return expireApproval({ executionId, memberId }, input.nodeId);
      },
    },
    ai: createAiCapability({
      memberId,
      executionId,
      workflowId: run.workflowId ?? null,
      stepId: run.stepId ?? null,
      simulated: run.simulated,
      callModels: run.callModels,
      net: options.aiNet,
    }),
  };
}

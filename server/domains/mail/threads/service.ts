/** Reading threads: the list (per folder, filters, `q`) and one thread with its messages. */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { appError } from '../../../core/errors/app-error';
import { decodeCursor, pageOf } from '../../../core/http/cursor';
import { resolveFolder } from '../folders/resolve';
import { presentMessageSummary } from '../present';
import { mailboxesWithFolders, runStatement } from '../repo';
import { preparedSearchOf } from '../search/prepare';
import { threadListStatement, type ThreadScope } from './list-statement';
import { presentThread, type ThreadRow } from './present';
import { findMemberThread, threadMessages } from './repo';
import type { ListThreadsInput } from './schemas';

function unknownFolder(): never {
  throw appError('request.bad_request', {
    message: 'No such folder in these mailboxes.',
    details: { in: 'query', issues: [{ path: 'folder', code: 'unknown_folder', message: 'No such folder in these mailboxes.' }] },
  });
}

/** Newest first; an unreadable cursor gives the first page. */
export async function listThreads(actor: AuthenticatedActor, input: ListThreadsInput) {
  const mailboxes = await mailboxesWithFolders(actor.member.id, input.mailboxId);
  const ids = mailboxes.map((mailbox) => mailbox.id);
  let scopes: ThreadScope[];
  let flaggedOnly = false;
  if (input.searchEverywhere) {
    scopes = ids.map((mailboxId) => ({ mailboxId, folderKeys: null }));
  } else {
    const folders = mailboxes.flatMap((mailbox) => mailbox.folders.map((folder) => ({ mailboxId: mailbox.id, ...folder })));
    const resolved = resolveFolder(input.folder, ids, folders);
    if (!resolved) unknownFolder();
    flaggedOnly = resolved.flaggedOnly;
    scopes = [...resolved.keysByMailbox].filter(([, keys]) => keys.length > 0).map(([mailboxId, folderKeys]) => ({ mailboxId, folderKeys }));
  }
  const search = await preparedSearchOf(input.q);
  if (scopes.length === 0) return { threads: [], nextCursor: null };
  const rows = await runStatement<ThreadRow>(
    threadListStatement({ scopes, flaggedOnly, filter: input.filter, search, after: decodeCursor(input.cursor), take: input.limit + 1 }),
  );
  const { items, nextCursor } = pageOf(rows, input.limit, (row) => row.last_message_at);
  return { threads: items.map(presentThread), nextCursor };
}

export async function getThread(actor: AuthenticatedActor, threadId: string) {
  const thread = await findMemberThread(actor.member.id, threadId);
  if (!thread) throw appError('request.not_found', { message: 'No such thread.' });
  const messages = await threadMessages(threadId);
  return { thread: presentThread(thread), messages: messages.map(presentMessageSummary) };
}

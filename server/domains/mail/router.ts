/**
 * The mail domain's routes: folders, threads (with their actions) and messages, read from the mirror,
 * composed by nesting (`mail.threads.list`, `mail.threads.act`). Attachment downloads and uploads are
 * plain routes (server/http/attachment-*-route.ts) over ./attachments.
 */
import { router } from '../../trpc/procedures';
import { foldersRouter } from './folders/router';
import { messagesRouter } from './messages/router';
import { threadsRouter } from './threads/router';

export const mailRouter = router({ folders: foldersRouter, threads: threadsRouter, messages: messagesRouter });

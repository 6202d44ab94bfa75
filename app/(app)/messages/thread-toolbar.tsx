'use client';

/** Actions on the open thread; what is offered follows the folder it is read from. */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Folder, FolderRole, Thread } from '@/app/lib/mail-types';
import { Button } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/app/ui/dropdown-menu';
import { ArchiveIcon, ArrowLeftIcon, FolderIcon, InboxIcon, MailIcon, MailOpenIcon, SpamIcon, StarIcon, TrashIcon, UndoIcon } from '@/app/ui/icons';
import { folderName, orderedFolders } from './folder-pane';
import { LabelsPopover } from './labels-popover';
import type { ThreadActionRequest } from './_lib/thread-actions-api';

export type ActRequest = Omit<ThreadActionRequest, 'threadId'>;

function IconAction({
  label,
  shortcut,
  onClick,
  children,
  testId,
  disabled,
}: {
  label: string;
  shortcut?: string;
  onClick: () => void;
  children: React.ReactNode;
  testId?: string;
  disabled?: boolean;
}) {
  return (
    <Button size="icon" variant="ghost" aria-label={label} title={shortcut ? `${label} (${shortcut})` : label} onClick={onClick} data-testid={testId} disabled={disabled}>
      {children}
    </Button>
  );
}

export function ThreadToolbar({
  thread,
  role,
  labels,
  mailboxFolders,
  permanentDelete,
  readOnly,
  onAct,
  onBack,
}: {
  thread: Thread;
  /** Role of the folder the thread is read from (null: a personal folder or a search). */
  role: FolderRole | null;
  labels: string[];
  mailboxFolders: Folder[];
  permanentDelete: boolean;
  readOnly: boolean;
  onAct: (request: ActRequest) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const a = t.webmail.actions;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const read = thread.unreadCount === 0;
  const moveTargets = orderedFolders(mailboxFolders).filter((folder) => folder.role !== 'starred' && folder.role !== 'all' && (folder.role ?? folder.key) !== role);

  return (
    <div role="toolbar" aria-label={a.label} className="flex flex-wrap items-center gap-0.5">
      <IconAction label={a.back} shortcut="u" onClick={onBack}>
        <ArrowLeftIcon />
      </IconAction>
      <span aria-hidden="true" className="mx-1 h-5 w-px bg-line" />
      {readOnly ? <span className="text-xs text-muted">{t.webmail.readOnly}</span> : null}
      <fieldset disabled={readOnly} className="contents">
        {role === 'archive' ? (
          <IconAction label={a.unarchive} onClick={() => onAct({ action: 'unarchive' })}>
            <InboxIcon />
          </IconAction>
        ) : (
          <IconAction label={a.archive} shortcut="e" onClick={() => onAct({ action: 'archive' })} testId="action-archive">
            <ArchiveIcon />
          </IconAction>
        )}
        {role === 'trash' ? (
          <>
            <IconAction label={a.restore} onClick={() => onAct({ action: 'restore' })}>
              <UndoIcon />
            </IconAction>
            {permanentDelete ? (
              <IconAction label={a.deletePermanently} onClick={() => setConfirmDelete(true)}>
                <TrashIcon className="text-red-600" />
              </IconAction>
            ) : null}
          </>
        ) : (
          <IconAction label={a.trash} shortcut="#" onClick={() => onAct({ action: 'trash' })}>
            <TrashIcon />
          </IconAction>
        )}
        {role === 'spam' ? (
          <IconAction label={a.notSpam} onClick={() => onAct({ action: 'notSpam' })}>
            <InboxIcon />
          </IconAction>
        ) : (
          <IconAction label={a.spam} onClick={() => onAct({ action: 'spam' })}>
            <SpamIcon />
          </IconAction>
        )}
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-line" />
        {read ? (
          <IconAction label={a.markUnread} shortcut="Shift+U" onClick={() => onAct({ action: 'markUnread' })}>
            <MailIcon />
          </IconAction>
        ) : (
          <IconAction label={a.markRead} shortcut="Shift+I" onClick={() => onAct({ action: 'markRead' })}>
            <MailOpenIcon />
          </IconAction>
        )}
        <IconAction label={thread.flags.flagged ? a.unflag : a.flag} shortcut="s" onClick={() => onAct({ action: thread.flags.flagged ? 'unflag' : 'flag' })}>
          <StarIcon className={thread.flags.flagged ? 'fill-amber-400 text-amber-500' : undefined} />
        </IconAction>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button size="icon" variant="ghost" aria-label={a.move} title={a.move} disabled={moveTargets.length === 0}>
              <FolderIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="max-h-80 overflow-y-auto">
            <DropdownMenuLabel>{a.moveTo}</DropdownMenuLabel>
            {moveTargets.map((folder) => (
              <DropdownMenuItem key={folder.key} onSelect={() => onAct({ action: 'move', folder: folder.role ?? folder.key })}>
                {folderName(folder, t)}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
        <LabelsPopover labels={labels} folders={mailboxFolders} onChange={(change) => onAct({ labels: change })} />
      </fieldset>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={a.deleteTitle}
        description={a.deleteBody}
        confirmLabel={a.deletePermanently}
        onConfirm={() => {
          setConfirmDelete(false);
          onAct({ action: 'deletePermanently' });
        }}
      />
    </div>
  );
}

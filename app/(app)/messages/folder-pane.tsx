'use client';

/** The folder column: a mailbox selector (all mailboxes aggregated, or one) and folders with unread counts. */
import type { ComponentType } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import type { Folder, FolderRole, Mailbox } from '@/app/lib/mail-types';
import { cn } from '@/app/ui/cn';
import { Select } from '@/app/ui/field';
import { ArchiveIcon, FileIcon, FolderIcon, InboxIcon, MailIcon, SendIcon, SpamIcon, StarIcon, TrashIcon } from '@/app/ui/icons';
import { ErrorState } from '@/app/ui/states';

const roleIcons: Record<FolderRole, ComponentType<{ size?: number; className?: string }>> = {
  inbox: InboxIcon,
  starred: StarIcon,
  sent: SendIcon,
  drafts: FileIcon,
  archive: ArchiveIcon,
  all: MailIcon,
  spam: SpamIcon,
  trash: TrashIcon,
};

const roleOrder: FolderRole[] = ['inbox', 'starred', 'sent', 'drafts', 'archive', 'all', 'spam', 'trash'];

export function folderName(folder: Folder, t: Dictionary): string {
  if (folder.role) return t.webmail.roles[folder.role];
  return folder.label ?? folder.name ?? folder.key;
}

/** System folders in their usual order first, then personal folders as the service lists them. */
export function orderedFolders(folders: readonly Folder[]): Folder[] {
  const system = roleOrder.map((role) => folders.find((folder) => folder.role === role)).filter((folder): folder is Folder => Boolean(folder));
  return [...system, ...folders.filter((folder) => !folder.role)];
}

export function MailboxSelect({
  id,
  mailboxes,
  value,
  onChange,
  className,
}: {
  id: string;
  mailboxes: Mailbox[];
  value: string | null;
  onChange: (id: string | null) => void;
  className?: string;
}) {
  const { t } = useI18n();
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {t.webmail.mailbox}
      </label>
      <Select id={id} controlSize="sm" value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">{t.webmail.allMailboxes}</option>
        {mailboxes.map((mailbox) => (
          <option key={mailbox.id} value={mailbox.id}>
            {mailbox.address}
          </option>
        ))}
      </Select>
    </div>
  );
}

export function FolderPane({
  folders,
  error,
  onRetry,
  current,
  onSelect,
  mailboxSelect,
}: {
  folders: Folder[] | undefined;
  error: unknown;
  onRetry: () => void;
  current: string;
  onSelect: (key: string) => void;
  mailboxSelect: React.ReactNode;
}) {
  const { t } = useI18n();
  return (
    <nav aria-label={t.webmail.folders} className="flex min-h-0 flex-col">
      <div className="shrink-0 p-3">{mailboxSelect}</div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {folders === undefined ? (
          error ? (
            <ErrorState error={error} onRetry={onRetry} testId="folders-error" />
          ) : (
            <div role="status" className="space-y-2 px-2 py-1" data-testid="folders-loading">
              <span className="sr-only">{t.common.loading}</span>
              {Array.from({ length: 6 }, (_, i) => (
                <div key={i} className="h-6 animate-pulse rounded bg-subtle" />
              ))}
            </div>
          )
        ) : folders.length === 0 ? (
          <p className="px-2 py-4 text-sm text-muted" data-testid="folders-empty">
            {t.webmail.noFolders}
          </p>
        ) : (
          <ul className="space-y-0.5">
            {orderedFolders(folders).map((folder) => {
              const Icon = folder.role ? roleIcons[folder.role] : FolderIcon;
              // System folders are addressed by role (the same in one mailbox and across all of them).
              const target = folder.role ?? folder.key;
              const active = target === current || folder.key === current;
              return (
                <li key={folder.key}>
                  <button
                    type="button"
                    onClick={() => onSelect(target)}
                    aria-current={active ? 'page' : undefined}
                    data-testid="folder-item"
                    data-role={folder.role ?? undefined}
                    className={cn(
                      'flex h-8 w-full items-center gap-2.5 rounded-md pr-2 text-left text-sm transition-colors',
                      active ? 'bg-brand/10 font-medium text-brand-fg' : 'text-fg/90 hover:bg-subtle',
                    )}
                    style={{ paddingLeft: `${0.625 + Math.min(folder.depth, 6) * 0.75}rem` }}
                  >
                    <Icon className="shrink-0" />
                    <span className="min-w-0 flex-1 truncate">{folderName(folder, t)}</span>
                    {folder.unreadCount > 0 ? (
                      <span className="text-xs font-semibold tabular-nums" aria-label={t.webmail.unreadCount(folder.unreadCount)}>
                        {folder.unreadCount > 9999 ? '9999+' : folder.unreadCount}
                      </span>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </nav>
  );
}

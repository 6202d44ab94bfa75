'use client';

import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDate } from '@/app/lib/format';
import type { Member } from '@/app/lib/trpc';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { Select } from '@/app/ui/field';
import { UsersIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { Avatar } from '../../_shell/user-menu';
import { useMe } from '../../_shell/_lib/api';
import { useChangeRole, useDeactivateMember, useMembers, useReactivateMember } from './_lib/api';

type Role = Member['role'];
const roles: Role[] = ['member', 'admin'];

function ErrorNote({ error, testId }: { error: unknown; testId: string }) {
  const { t } = useI18n();
  return (
    <Alert tone="danger" testId={testId}>
      {describeError(error, t)}
    </Alert>
  );
}

/** Closing a confirmation forgets the mutation's last result, so reopening starts clean. */
function closeWith(mutation: { reset: () => void }, onClose: () => void) {
  return (open: boolean) => {
    if (!open) {
      mutation.reset();
      onClose();
    }
  };
}

function ChangeRoleDialog({ change, onClose }: { change: { member: Member; role: Role } | null; onClose: () => void }) {
  const { t } = useI18n();
  const mutation = useChangeRole(onClose);
  return (
    <ConfirmDialog
      open={change !== null}
      onOpenChange={closeWith(mutation, onClose)}
      tone="primary"
      title={change ? t.members.changeRoleTitle(change.member.name, change.role) : ''}
      description={change ? t.members.changeRoleBody[change.role] : undefined}
      confirmLabel={mutation.isPending ? t.members.changingRole : t.members.changeRoleConfirm}
      pending={mutation.isPending}
      error={mutation.isError ? <ErrorNote error={mutation.error} testId="change-role-error" /> : null}
      onConfirm={() => change && mutation.mutate({ id: change.member.id, role: change.role })}
    />
  );
}

function DeactivateDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const { t } = useI18n();
  const mutation = useDeactivateMember();
  const effects = mutation.data?.effects;
  return (
    <ConfirmDialog
      open={member !== null}
      onOpenChange={closeWith(mutation, onClose)}
      title={member ? (effects ? t.members.deactivatedTitle(member.name) : t.members.deactivateTitle(member.name)) : ''}
      description={t.members.deactivateBody}
      confirmLabel={mutation.isPending ? t.members.deactivating : t.members.deactivateConfirm}
      pending={mutation.isPending}
      error={mutation.isError ? <ErrorNote error={mutation.error} testId="deactivate-error" /> : null}
      result={
        effects ? (
          <ul className="space-y-1.5 rounded-lg border border-line bg-subtle/50 px-4 py-3" data-testid="deactivation-effects">
            <li>{t.members.effects.sessionsRevoked(effects.sessionsRevoked)}</li>
            <li>{t.members.effects.mailboxesPaused(effects.mailboxesPaused)}</li>
            <li>{t.members.effects.workflowsUnpublished(effects.workflowsUnpublished)}</li>
          </ul>
        ) : undefined
      }
      onConfirm={() => member && mutation.mutate({ id: member.id })}
    />
  );
}

function ReactivateDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const { t } = useI18n();
  const mutation = useReactivateMember(onClose);
  return (
    <ConfirmDialog
      open={member !== null}
      onOpenChange={closeWith(mutation, onClose)}
      tone="primary"
      title={member ? t.members.reactivateTitle(member.name) : ''}
      description={t.members.reactivateBody}
      confirmLabel={mutation.isPending ? t.members.reactivating : t.members.reactivateConfirm}
      pending={mutation.isPending}
      error={mutation.isError ? <ErrorNote error={mutation.error} testId="reactivate-error" /> : null}
      onConfirm={() => member && mutation.mutate({ id: member.id })}
    />
  );
}

function MembersTable({
  members,
  meId,
  onChangeRole,
  onDeactivate,
  onReactivate,
}: {
  members: Member[];
  meId: string | undefined;
  onChangeRole: (member: Member, role: Role) => void;
  onDeactivate: (member: Member) => void;
  onReactivate: (member: Member) => void;
}) {
  const { t, locale } = useI18n();
  return (
    <Table caption={t.members.title}>
      <THead>
        <TH>{t.members.columns.name}</TH>
        <TH>{t.members.columns.email}</TH>
        <TH>{t.members.columns.role}</TH>
        <TH>{t.members.columns.status}</TH>
        <TH>{t.members.columns.created}</TH>
        <TH className="text-right">
          <span className="sr-only">{t.members.columns.actions}</span>
        </TH>
      </THead>
      <TBody>
        {members.map((member) => (
          <TR key={member.id} data-testid="member-row">
            <TD>
              <div className="flex items-center gap-2.5">
                <Avatar name={member.name} className="size-7 text-[11px]" />
                <span className="font-medium">{member.name}</span>
                {member.id === meId ? <Badge tone="brand">{t.common.you}</Badge> : null}
              </div>
            </TD>
            <TD className="text-muted">{member.email}</TD>
            <TD>
              <Select
                aria-label={t.members.roleLabel(member.name)}
                value={member.role}
                onChange={(event) => onChangeRole(member, event.target.value as Role)}
                controlSize="sm"
                className="w-auto min-w-36"
              >
                {roles.map((role) => (
                  <option key={role} value={role}>
                    {t.roles[role]}
                  </option>
                ))}
              </Select>
            </TD>
            <TD>
              <StatusBadge tone={member.status === 'active' ? 'success' : 'neutral'}>{t.memberStatus[member.status]}</StatusBadge>
            </TD>
            <TD className="whitespace-nowrap text-muted">{formatDate(member.createdAt, locale)}</TD>
            <TD className="text-right">
              {member.status === 'active' ? (
                // Not on one's own account (the service refuses it: 409 governance.self_target), nor
                // before the signed-in member is known.
                meId === undefined || member.id === meId ? null : (
                  <Button size="sm" variant="dangerGhost" aria-label={t.members.deactivateLabel(member.name)} onClick={() => onDeactivate(member)}>
                    {t.members.deactivate}
                  </Button>
                )
              ) : (
                <Button size="sm" variant="ghost" aria-label={t.members.reactivateLabel(member.name)} onClick={() => onReactivate(member)}>
                  {t.members.reactivate}
                </Button>
              )}
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

export function MembersSection() {
  const { t } = useI18n();
  const me = useMe();
  const members = useMembers();
  const [roleChange, setRoleChange] = useState<{ member: Member; role: Role } | null>(null);
  const [deactivating, setDeactivating] = useState<Member | null>(null);
  const [reactivating, setReactivating] = useState<Member | null>(null);

  return (
    <section>
      <PageHeader title={t.members.title} description={t.members.description} />
      {members.isPending ? (
        <LoadingState />
      ) : members.isError ? (
        <ErrorState error={members.error} onRetry={() => members.refetch()} testId="members-error" />
      ) : members.data.members.length === 0 ? (
        <EmptyState icon={<UsersIcon size={18} />} title={t.members.empty.title} body={t.members.empty.body} />
      ) : (
        <MembersTable
          members={members.data.members}
          meId={me.data?.id}
          onChangeRole={(member, role) => role !== member.role && setRoleChange({ member, role })}
          onDeactivate={setDeactivating}
          onReactivate={setReactivating}
        />
      )}
      <ChangeRoleDialog change={roleChange} onClose={() => setRoleChange(null)} />
      <DeactivateDialog member={deactivating} onClose={() => setDeactivating(null)} />
      <ReactivateDialog member={reactivating} onClose={() => setReactivating(null)} />
    </section>
  );
}

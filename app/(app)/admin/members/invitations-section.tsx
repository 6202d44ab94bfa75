'use client';

import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDate, formatDateTime } from '@/app/lib/format';
import type { Invitation } from '@/app/lib/trpc';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { CopyField } from '@/app/ui/copy-field';
import { ConfirmDialog, Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { SelectField, TextField } from '@/app/ui/field';
import { MailIcon, PlusIcon } from '@/app/ui/icons';
import { SectionHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useInvitations, useInvite, useRevokeInvitation, type CreatedInvitation } from './_lib/api';

type Created = CreatedInvitation;
type Role = Invitation['role'];

// Deliberately loose: the server has the final word; this only catches obvious typos.
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function InviteForm({ onCreated }: { onCreated: (created: Created) => void }) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [emailError, setEmailError] = useState<string>();
  const invite = useInvite(onCreated);

  function submit(event: FormEvent) {
    event.preventDefault();
    const error = emailShape.test(email.trim()) ? undefined : t.invitations.dialog.emailInvalid;
    setEmailError(error);
    if (!error) invite.mutate({ email: email.trim(), role });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {invite.isError ? (
          <Alert tone="danger" testId="invite-error">
            {describeError(invite.error, t)}
          </Alert>
        ) : null}
        <TextField
          label={t.invitations.dialog.email}
          name="email"
          type="email"
          autoComplete="off"
          autoFocus
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setEmailError(undefined);
          }}
          error={emailError}
        />
        <SelectField label={t.invitations.dialog.role} name="role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
          <option value="member">{t.roles.member}</option>
          <option value="admin">{t.roles.admin}</option>
        </SelectField>
      </DialogBody>
      <FormDialogFooter pending={invite.isPending} submitLabel={t.invitations.dialog.submit} pendingLabel={t.invitations.dialog.submitting} />
    </DialogForm>
  );
}

function InviteLinkView({ created }: { created: Created }) {
  const { t, locale } = useI18n();
  return (
    <>
      <DialogBody className="space-y-4">
        <p className="text-sm text-muted">{t.invitations.link.description(created.invitation.email)}</p>
        <Alert tone="warning" testId="invitation-link-warning" live="status">
          {t.invitations.link.warning(formatDateTime(created.invitation.expiresAt, locale))}
        </Alert>
        <CopyField value={created.acceptUrl} label={t.invitations.link.label} testId="invitation-accept-url" />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="primary">{t.common.done}</Button>
        </DialogClose>
      </DialogFooter>
    </>
  );
}

function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setCreated(null);
      }}
    >
      <DialogContent
        size={created ? 'md' : 'sm'}
        title={created ? t.invitations.link.title : t.invitations.dialog.title}
        description={created ? undefined : t.invitations.dialog.description}
        onInteractOutside={created ? (event) => event.preventDefault() : undefined}
      >
        {open ? created ? <InviteLinkView created={created} /> : <InviteForm onCreated={setCreated} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RevokeInvitationDialog({ invitation, onClose }: { invitation: Invitation | null; onClose: () => void }) {
  const { t } = useI18n();
  const revoke = useRevokeInvitation(onClose);
  return (
    <ConfirmDialog
      open={invitation !== null}
      onOpenChange={(open) => {
        if (!open) {
          revoke.reset();
          onClose();
        }
      }}
      title={invitation ? t.invitations.revokeTitle(invitation.email) : ''}
      description={t.invitations.revokeBody}
      confirmLabel={revoke.isPending ? t.invitations.revoking : t.invitations.revokeConfirm}
      pending={revoke.isPending}
      error={
        revoke.isError ? (
          <Alert tone="danger" testId="revoke-invitation-error">
            {describeError(revoke.error, t)}
          </Alert>
        ) : null
      }
      onConfirm={() => invitation && revoke.mutate({ id: invitation.id })}
    />
  );
}

function InvitationsTable({ invitations, onRevoke }: { invitations: Invitation[]; onRevoke: (invitation: Invitation) => void }) {
  const { t, locale } = useI18n();
  return (
    <Table caption={t.invitations.title}>
      <THead>
        <TH>{t.invitations.columns.email}</TH>
        <TH>{t.invitations.columns.role}</TH>
        <TH>{t.invitations.columns.created}</TH>
        <TH>{t.invitations.columns.expires}</TH>
        <TH className="text-right">
          <span className="sr-only">{t.invitations.columns.actions}</span>
        </TH>
      </THead>
      <TBody>
        {invitations.map((invitation) => (
          <TR key={invitation.id} data-testid="invitation-row">
            <TD className="font-medium">{invitation.email}</TD>
            <TD>
              <Badge tone={invitation.role === 'admin' ? 'brand' : 'neutral'}>{t.roles[invitation.role]}</Badge>
            </TD>
            <TD className="whitespace-nowrap text-muted">{formatDate(invitation.createdAt, locale)}</TD>
            <TD className="whitespace-nowrap text-muted">
              <span className="inline-flex items-center gap-2">
                {formatDateTime(invitation.expiresAt, locale)}
                {invitation.expired ? <Badge tone="warning">{t.invitations.expired}</Badge> : null}
              </span>
            </TD>
            <TD className="text-right">
              <Button size="sm" variant="dangerGhost" aria-label={t.invitations.revokeLabel(invitation.email)} onClick={() => onRevoke(invitation)}>
                {t.invitations.revoke}
              </Button>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

export function InvitationsSection() {
  const { t } = useI18n();
  const invitations = useInvitations();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  return (
    <section aria-labelledby="invitations-heading">
      <SectionHeader
        id="invitations-heading"
        title={t.invitations.title}
        description={t.invitations.description}
        actions={
          <Button variant="primary" onClick={() => setInviteOpen(true)}>
            <PlusIcon />
            {t.invitations.invite}
          </Button>
        }
      />
      {invitations.isPending ? (
        <LoadingState rows={2} />
      ) : invitations.isError ? (
        <ErrorState error={invitations.error} onRetry={() => invitations.refetch()} testId="invitations-error" />
      ) : invitations.data.invitations.length === 0 ? (
        <EmptyState icon={<MailIcon size={18} />} title={t.invitations.empty.title} body={t.invitations.empty.body} />
      ) : (
        <InvitationsTable invitations={invitations.data.invitations} onRevoke={setRevoking} />
      )}
      <InviteDialog open={inviteOpen} onOpenChange={setInviteOpen} />
      <RevokeInvitationDialog invitation={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}

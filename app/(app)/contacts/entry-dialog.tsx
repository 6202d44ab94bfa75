'use client';

/**
 * One entry of the address book: its resolution with the trace, then a tab per card the reader may edit
 * (the organisation's for administrators only, their own, and their card for the mailbox they look from).
 * The point of view starts as the page's and can change here; the entry is read again from the list
 * route from that point of view, so what is shown is what the list and a workflow would see.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Mailbox } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent } from '@/app/ui/dialog';
import { SelectField } from '@/app/ui/field';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { TabPanel, Tabs, useTabsId } from '@/app/ui/tabs';
import type { ContactKind } from '@/server/domains/contacts/normalise';
import { MemberCardForm, SharedCardForm } from './_components/card-forms';
import { ResolutionTrace } from './_components/resolution-trace';
import { useContactEntry, useContactResolution } from './_lib/api';

export interface EntryTarget {
  kind: ContactKind;
  value: string;
}

export type EntryTab = 'shared' | 'mine' | 'mailbox';

/** What the dialog opens on: the entry, the point of view ('' for none) and the card's tab. */
export interface EntryOpening {
  target: EntryTarget;
  mailboxId: string;
  tab: EntryTab;
}

/** The resolution of an address without a card of its own yet (its domain's cards and the defaults still apply). */
function AddressResolution({ address, mailboxId }: { address: string; mailboxId: string }) {
  const resolution = useContactResolution(address, mailboxId || undefined);
  return resolution.data ? <ResolutionTrace resolution={resolution.data} /> : null;
}

function EntryBody({ opening, mailboxes, isAdmin }: { opening: EntryOpening; mailboxes: Mailbox[]; isAdmin: boolean }) {
  const { t } = useI18n();
  const c = t.contacts;
  const tabsId = useTabsId();
  const { target } = opening;
  const [mailboxId, setMailboxId] = useState(opening.mailboxId);
  const [tab, setTab] = useState<EntryTab>(opening.tab);
  const entry = useContactEntry(target.kind, target.value, mailboxId || undefined);
  const mailbox = mailboxes.find((candidate) => candidate.id === mailboxId);
  const items: { value: EntryTab; label: string }[] = [
    ...(isAdmin ? [{ value: 'shared' as const, label: c.entry.tabs.shared }] : []),
    { value: 'mine', label: c.entry.tabs.mine },
    ...(mailbox ? [{ value: 'mailbox' as const, label: c.entry.tabs.mailbox(mailbox.address) }] : []),
  ];
  const shownTab: EntryTab = items.some((item) => item.value === tab) ? tab : 'mine';
  const data = entry.data ?? null;
  const mailboxCard = data && mailbox ? (data.memberByMailbox.find((card) => card.mailboxId === mailbox.id) ?? null) : null;

  return (
    <DialogBody className="space-y-5">
      <p className="text-sm text-muted">{c.entry.description[target.kind]}</p>
      {mailboxes.length > 0 ? (
        <div className="max-w-sm">
          <SelectField label={c.entry.pointOfView} value={mailboxId} onChange={(event) => setMailboxId(event.target.value)} data-testid="entry-mailbox">
            <option value="">{c.filters.noMailbox}</option>
            {mailboxes.map((option) => (
              <option key={option.id} value={option.id}>
                {c.filters.mailboxOption(option.address)}
              </option>
            ))}
          </SelectField>
        </div>
      ) : null}
      {entry.isPending ? (
        <LoadingState rows={3} />
      ) : entry.isError ? (
        <ErrorState error={entry.error} onRetry={() => entry.refetch()} testId="entry-error" />
      ) : (
        <>
          {data ? (
            <ResolutionTrace resolution={data} />
          ) : (
            <>
              <Alert tone="info" testId="entry-gone">
                {c.entry.gone}
              </Alert>
              {target.kind === 'contact' ? <AddressResolution address={target.value} mailboxId={mailboxId} /> : null}
            </>
          )}
          <div>
            <Tabs id={tabsId} items={items} value={shownTab} onChange={setTab} label={c.entry.tabsLabel} />
            <TabPanel id={tabsId} value={shownTab}>
              {shownTab === 'shared' ? (
                <SharedCardForm key="shared" target={target} card={data?.shared ?? null} />
              ) : shownTab === 'mailbox' && mailbox ? (
                <MemberCardForm key={`mailbox-${mailbox.id}`} target={target} card={mailboxCard} mailbox={{ id: mailbox.id, address: mailbox.address }} />
              ) : (
                <MemberCardForm key="mine" target={target} card={data?.member ?? null} />
              )}
            </TabPanel>
            {!mailbox && mailboxes.length > 0 ? <p className="mt-3 text-xs text-muted">{c.entry.pickMailbox}</p> : null}
          </div>
        </>
      )}
    </DialogBody>
  );
}

export function EntryDialog({ opening, onClose, mailboxes, isAdmin }: { opening: EntryOpening | null; onClose: () => void; mailboxes: Mailbox[]; isAdmin: boolean }) {
  const { t } = useI18n();
  return (
    <Dialog open={opening !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {opening ? (
        <DialogContent title={t.contacts.entry.title(opening.target.value)} size="xl">
          <EntryBody key={`${opening.target.kind}:${opening.target.value}`} opening={opening} mailboxes={mailboxes} isAdmin={isAdmin} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

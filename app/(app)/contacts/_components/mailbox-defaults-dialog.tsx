'use client';

/**
 * A mailbox's writing defaults (the address book's `member_mailbox_default` layer, its default signature
 * included), opened from the mailbox's card on the Mailboxes page: a button and its dialog, so the card
 * only places the button.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogContent } from '@/app/ui/dialog';
import { PencilIcon } from '@/app/ui/icons';
import { DefaultsForm } from './defaults-form';

export function MailboxDefaultsButton({ mailbox }: { mailbox: { id: string; address: string } }) {
  const { t } = useI18n();
  const d = t.contacts.defaults.mailbox;
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" aria-label={d.openLabel(mailbox.address)} onClick={() => setOpen(true)} data-testid="mailbox-writing-defaults">
        <PencilIcon />
        {d.open}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open ? (
          <DialogContent title={d.title(mailbox.address)} description={d.description} size="lg">
            <DialogBody>
              <DefaultsForm which={{ scope: 'mailbox', mailboxId: mailbox.id }} testId="mailbox-defaults-form" />
            </DialogBody>
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}

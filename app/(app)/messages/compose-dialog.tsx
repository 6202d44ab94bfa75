'use client';

/**
 * Compose: a new message, a reply, a reply to all or a forward, in a dialog. Answers start from the
 * service's reply context (recipients, subject, quoted text, the original's attachments for a
 * forward). Files go through the upload route first; the send carries one client token per dialog,
 * so a double submit is one message. "Send to review instead" puts it in the review queue.
 *
 * The address book (issue 22): To suggests recipients as you type (the address book, then the
 * mailbox's frequent correspondents; a native datalist, so the keyboard works as in any field), and
 * "Add my signature" (on by default) asks the service to append the recipient's resolved signature.
 */
import { useDeferredValue, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import type { Mailbox, MailPrefill } from '@/app/lib/mail-types';
import type { RouterOutputs } from '@/app/lib/trpc';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { CheckboxField, SelectField, TextareaField, TextField } from '@/app/ui/field';
import { CloseIcon, PaperclipIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { splitAddresses } from './_lib/addresses';
import { useReplyContext, useSendMail } from './_lib/api';
import { useRecipientSuggestions, type RecipientSuggestion } from './_lib/contacts-api';
import { newClientToken } from './_lib/client-token';

export type AnswerMode = 'reply' | 'replyAll' | 'forward';
export type ComposeStart = { mode: 'new'; mailboxId: string | null; prefill?: MailPrefill } | { mode: AnswerMode; messageId: string; mailboxId: string };
export type SendResult = RouterOutputs['compose']['send'];
type ReplyContext = RouterOutputs['compose']['replyContext'];

interface Upload {
  id: string;
  filename: string;
  size: number;
}

async function uploadFile(file: File): Promise<Upload> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch('/api/v1/messages/attachments', { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await response.json().catch(() => null)) as (Upload & { error?: { message?: string } }) | null;
  if (!response.ok || !body || !body.id) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return { id: body.id, filename: body.filename, size: body.size };
}

export function ComposeDialog({
  start,
  mailboxes,
  onClose,
  onSent,
}: {
  start: ComposeStart | null;
  mailboxes: Mailbox[];
  onClose: () => void;
  onSent: (result: SendResult) => void;
}) {
  const { t } = useI18n();
  const c = t.compose;
  const answer = start && start.mode !== 'new' ? start : null;
  const context = useReplyContext(answer);
  const title = start ? c.titles[start.mode] : c.titles.new;
  return (
    <Dialog open={start !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title={title} size="xl" onInteractOutside={(event) => event.preventDefault()}>
        {start === null ? null : answer && !context.data ? (
          <DialogBody>
            {context.isError ? (
              <Alert tone="danger" testId="compose-context-error">{describeError(context.error, t)}</Alert>
            ) : (
              <p role="status" className="flex items-center gap-2 text-sm text-muted">
                <Spinner />
                {c.loadingContext}
              </p>
            )}
          </DialogBody>
        ) : (
          <ComposeForm
            key={answer ? `${answer.mode}:${answer.messageId}` : 'new'}
            start={start}
            context={answer ? (context.data ?? null) : null}
            mailboxes={mailboxes}
            onSent={onSent}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ComposeForm({ start, context, mailboxes, onSent }: { start: ComposeStart; context: ReplyContext | null; mailboxes: Mailbox[]; onSent: (result: SendResult) => void }) {
  const { t } = useI18n();
  const c = t.compose;
  const a = t.webmail.addressBook;
  const active = mailboxes.filter((mailbox) => mailbox.status !== 'disconnected');
  const [clientToken] = useState(newClientToken);
  const preferred = context?.mailboxId ?? start.mailboxId;
  const [mailboxId, setMailboxId] = useState(active.some((mailbox) => mailbox.id === preferred) ? preferred! : (active[0]?.id ?? ''));
  const prefill = start.mode === 'new' ? start.prefill : undefined;
  const [to, setTo] = useState(prefill?.to ?? (context?.to ?? []).join(', '));
  const [cc, setCc] = useState((context?.cc ?? []).join(', '));
  const [bcc, setBcc] = useState('');
  const [showCc, setShowCc] = useState((context?.cc.length ?? 0) > 0);
  const [subject, setSubject] = useState(prefill?.subject ?? context?.subject ?? '');
  const [body, setBody] = useState(prefill?.body ?? context?.quotedText ?? '');
  const [review, setReview] = useState(false);
  const [signature, setSignature] = useState(true);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [originals, setOriginals] = useState(context?.attachments ?? []);
  const [uploading, setUploading] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useSendMail(onSent);

  async function addFiles(files: FileList | null) {
    if (!files) return;
    for (const file of Array.from(files)) {
      setUploading((count) => count + 1);
      try {
        const uploaded = await uploadFile(file);
        setUploads((current) => [...current, uploaded]);
      } catch (error) {
        setProblem(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        setUploading((count) => count - 1);
      }
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!mailboxId) return setProblem(c.errors.noMailbox);
    const lists = [splitAddresses(to), splitAddresses(cc), splitAddresses(bcc)];
    const invalid = lists.flatMap((list) => list.invalid);
    if (invalid.length > 0) return setProblem(c.errors.invalidAddress(invalid[0]));
    if (lists.every((list) => list.addresses.length === 0)) return setProblem(c.errors.noRecipient);
    if (lists.some((list) => list.addresses.length > 100)) return setProblem(c.errors.tooMany);
    send.mutate({
      mailboxId,
      to: lists[0].addresses,
      cc: lists[1].addresses,
      bcc: lists[2].addresses,
      subject,
      bodyText: body,
      attachments: [...uploads.map((upload) => ({ uploadId: upload.id })), ...originals.map((original) => ({ messageId: original.messageId, position: original.position }))],
      inReplyTo: start.mode === 'new' ? undefined : { messageId: start.messageId, mode: start.mode, includeAttachments: false },
      review,
      signature,
      clientToken,
    });
  }

  const error = problem ?? (send.isError ? describeError(send.error, t) : null);
  return (
    <DialogForm onSubmit={submit} data-testid="compose-form">
      <DialogBody className="space-y-3">
        {error ? (
          <Alert tone="danger" testId="compose-error">
            {error}
          </Alert>
        ) : null}
        <SelectField label={c.from} value={mailboxId} onChange={(event) => setMailboxId(event.target.value)} disabled={start.mode !== 'new'} data-testid="compose-from">
          {active.map((mailbox) => (
            <option key={mailbox.id} value={mailbox.id}>
              {mailbox.address}
            </option>
          ))}
        </SelectField>
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <TextField
              label={c.to}
              value={to}
              onChange={(event) => setTo(event.target.value)}
              autoComplete="off"
              list="compose-to-suggestions"
              data-testid="compose-to"
              autoFocus={start.mode === 'new' || start.mode === 'forward'}
            />
            <RecipientSuggestions id="compose-to-suggestions" mailboxId={mailboxId} text={to} />
          </div>
          {showCc ? null : (
            <Button size="sm" variant="ghost" onClick={() => setShowCc(true)}>
              {c.showCcBcc}
            </Button>
          )}
        </div>
        {showCc ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label={c.cc} value={cc} onChange={(event) => setCc(event.target.value)} autoComplete="off" data-testid="compose-cc" />
            <TextField label={c.bcc} value={bcc} onChange={(event) => setBcc(event.target.value)} autoComplete="off" data-testid="compose-bcc" />
          </div>
        ) : null}
        <TextField label={c.subject} value={subject} maxLength={500} onChange={(event) => setSubject(event.target.value)} data-testid="compose-subject" />
        <TextareaField label={c.body} value={body} rows={12} maxLength={200_000} onChange={(event) => setBody(event.target.value)} data-testid="compose-body" autoFocus={start.mode === 'reply' || start.mode === 'replyAll'} />
        <div className="space-y-2">
          <div className="flex items-center gap-2">
            <input ref={fileInput} type="file" multiple className="sr-only" id="compose-files" onChange={(event) => void addFiles(event.target.files)} data-testid="compose-files" />
            <Button size="sm" onClick={() => fileInput.current?.click()} loading={uploading > 0}>
              <PaperclipIcon size={14} />
              {uploading > 0 ? c.uploading : c.attach}
            </Button>
          </div>
          {uploads.length + originals.length > 0 ? (
            <ul className="flex flex-wrap gap-2" aria-label={c.attachments}>
              {originals.map((original) => (
                <li key={`${original.messageId}:${original.position}`} className="flex items-center gap-1 rounded-md border border-line px-2 py-1 text-xs">
                  {original.filename} <span className="text-muted">({c.fromOriginal})</span>
                  <Button size="icon" variant="ghost" aria-label={c.removeAttachment(original.filename)} onClick={() => setOriginals((current) => current.filter((item) => item !== original))}>
                    <CloseIcon size={12} />
                  </Button>
                </li>
              ))}
              {uploads.map((upload) => (
                <li key={upload.id} className="flex items-center gap-1 rounded-md border border-line px-2 py-1 text-xs">
                  {upload.filename}
                  <Button size="icon" variant="ghost" aria-label={c.removeAttachment(upload.filename)} onClick={() => setUploads((current) => current.filter((item) => item.id !== upload.id))}>
                    <CloseIcon size={12} />
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <CheckboxField label={c.review} hint={c.reviewHint} checked={review} onChange={(event) => setReview(event.target.checked)} data-testid="compose-review" />
        <CheckboxField label={a.signature} hint={a.signatureHint} checked={signature} onChange={(event) => setSignature(event.target.checked)} data-testid="compose-signature" />
      </DialogBody>
      <FormDialogFooter pending={send.isPending} submitLabel={c.send} pendingLabel={c.sending} />
    </DialogForm>
  );
}

/**
 * The suggestions for the address being typed (the text after the last comma): each option's value is
 * the whole field with that address completed, so choosing one keeps the addresses before it.
 */
function RecipientSuggestions({ id, mailboxId, text }: { id: string; mailboxId: string; text: string }) {
  const { t } = useI18n();
  const a = t.webmail.addressBook;
  const cut = text.lastIndexOf(',');
  const typed = useDeferredValue(text.slice(cut + 1).trim());
  const suggestions = useRecipientSuggestions(mailboxId, typed);
  const before = cut >= 0 ? `${text.slice(0, cut + 1).trimEnd()} ` : '';
  const label = (item: RecipientSuggestion) =>
    [item.displayName ?? item.name, item.status ? (a.statuses[item.status] ?? item.status) : null, item.source === 'address_book' ? a.suggestionFromBook : a.suggestionFrequent(item.messages)].filter(Boolean).join(' · ');
  return (
    <datalist id={id} data-testid="compose-to-suggestions">
      {(suggestions.data?.items ?? []).map((item) => (
        <option key={item.address} value={`${before}${item.address}`} label={label(item)} />
      ))}
    </datalist>
  );
}

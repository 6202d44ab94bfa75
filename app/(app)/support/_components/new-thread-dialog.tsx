'use client';

/**
 * "New request" (Title + What you need) and "New conversation" (Subject + Message): one form, two sets of
 * words and one route each. Bounds are checked here as the server checks them (trimmed, 1-160 and 1-5000);
 * the server's own refusal (`support.bad_request`, `support.not_linked`) shows above the buttons. On success
 * the new thread is handed to `onCreated` (the page goes to it).
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { TextareaField, TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { supportBounds, useSupportWrites, type SupportKind, type SupportThread } from '../_lib/api';
import { nearLimit, textProblem } from './length-hint';

interface Errors {
  subject?: string;
  body?: string;
}

function NewThreadForm({ kind, onCreated }: { kind: SupportKind; onCreated: (thread: SupportThread) => void }) {
  const { t } = useI18n();
  const s = t.support;
  const words =
    kind === 'request'
      ? { title: s.request.title, subject: s.request.titleLabel, body: s.request.need, bodyHint: s.request.needHint, submit: s.request.submit, submitting: s.request.submitting }
      : { title: s.conversation.title, subject: s.conversation.subject, body: s.conversation.message, bodyHint: undefined, submit: s.conversation.submit, submitting: s.conversation.submitting };
  const { openRequest, openConversation } = useSupportWrites();
  const write = kind === 'request' ? openRequest : openConversation;
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const { errors, setErrors, clearError } = useFieldErrors<Errors>();

  const problemText = (problem: ReturnType<typeof textProblem>, max: number) => (problem === 'required' ? s.fields.required : problem === 'tooLong' ? s.fields.tooLong(max) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (write.isPending) return;
    const found: Errors = {
      subject: problemText(textProblem(subject, supportBounds.subject), supportBounds.subject),
      body: problemText(textProblem(body, supportBounds.body), supportBounds.body),
    };
    setErrors(found);
    if (found.subject || found.body) return;
    const handlers = { onSuccess: onCreated };
    if (kind === 'request') openRequest.mutate({ title: subject.trim(), need: body.trim() }, handlers);
    else openConversation.mutate({ subject: subject.trim(), body: body.trim() }, handlers);
  };

  const bodyHint = nearLimit(body.length, supportBounds.body) ? s.fields.counter(body.length, supportBounds.body) : words.bodyHint;

  return (
    <DialogForm onSubmit={submit} aria-label={words.title} data-testid={`support-${kind}-form`}>
      <DialogBody className="space-y-4">
        <TextField
          label={words.subject}
          value={subject}
          maxLength={supportBounds.subject}
          autoFocus
          autoComplete="off"
          placeholder={kind === 'request' ? s.request.titlePlaceholder : undefined}
          hint={nearLimit(subject.length, supportBounds.subject) ? s.fields.counter(subject.length, supportBounds.subject) : undefined}
          error={errors.subject}
          onChange={(event) => {
            setSubject(event.target.value);
            clearError('subject');
          }}
        />
        <TextareaField
          label={words.body}
          value={body}
          rows={8}
          maxLength={supportBounds.body}
          hint={bodyHint}
          error={errors.body}
          onChange={(event) => {
            setBody(event.target.value);
            clearError('body');
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit(event);
          }}
        />
        {write.error ? (
          <Alert tone="danger" testId="support-form-error">
            {describeError(write.error, t)}
          </Alert>
        ) : null}
      </DialogBody>
      <FormDialogFooter pending={write.isPending} submitLabel={words.submit} pendingLabel={words.submitting} />
    </DialogForm>
  );
}

export function NewThreadDialog({ kind, onOpenChange, onCreated }: { kind: SupportKind | null; onOpenChange: (open: boolean) => void; onCreated: (thread: SupportThread) => void }) {
  const { t } = useI18n();
  const s = t.support;
  return (
    <Dialog open={kind !== null} onOpenChange={onOpenChange}>
      {kind ? (
        <DialogContent
          size="lg"
          title={kind === 'request' ? s.request.title : s.conversation.title}
          description={kind === 'request' ? s.request.description : s.conversation.description}
        >
          <NewThreadForm key={kind} kind={kind} onCreated={onCreated} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

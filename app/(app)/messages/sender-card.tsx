'use client';

/**
 * The sender's address book card beside a message (issue 22): the resolved display name, status,
 * language, form of address, tone and notes from the message's mailbox's point of view, each with
 * "why" (the card it comes from), so a member sees at once why a draft came out formal. "Add to
 * address book" (or "Edit my card") opens a small editor of the member's own card of the address
 * (PUT /api/v1/contacts, member layer); the Contacts page edits every layer.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { SelectField, TextareaField } from '@/app/ui/field';
import { useSaveMemberCard, useSenderCard, type ContactResolution } from './_lib/contacts-api';

const statusTone: Record<string, BadgeTone> = { vip: 'brand', blocked: 'danger', customer: 'success', partner: 'success', supplier: 'neutral', prospect: 'warning' };

const isCardLayer = (layer: string | null) => layer !== null && !layer.endsWith('_default');

export function SenderCard({ address, mailboxId }: { address: string | null; mailboxId: string }) {
  const { t } = useI18n();
  const a = t.webmail.addressBook;
  const card = useSenderCard(address, mailboxId);
  const [editing, setEditing] = useState(false);
  if (!address) return null;
  if (card.isPending) return <p className="mt-3 text-xs text-muted" role="status">{a.loading}</p>;
  if (card.isError) return null;
  const { resolved, sources } = card.data;
  const mine = sources.formality === 'member_contact' || sources.tone === 'member_contact' || sources.notes.includes('member_contact');
  const known = [sources.displayName, sources.status, sources.language, sources.formality, sources.tone, ...sources.notes].some(isCardLayer);
  const rows: { key: string; label: string; value: string | null; layer: string | null }[] = [
    { key: 'displayName', label: a.fields.displayName, value: resolved.displayName, layer: sources.displayName },
    { key: 'language', label: a.fields.language, value: resolved.language, layer: sources.language },
    { key: 'formality', label: a.fields.formality, value: resolved.formality ? (a.formalities[resolved.formality] ?? resolved.formality) : null, layer: sources.formality },
    { key: 'tone', label: a.fields.tone, value: resolved.tone ? (a.tones[resolved.tone] ?? resolved.tone) : null, layer: sources.tone },
  ].filter((row) => row.value !== null);

  return (
    <section className="mt-3 rounded-lg border border-line bg-subtle/30 p-3 text-sm" aria-label={a.card} data-testid="sender-card">
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{a.card}</h3>
        {resolved.status ? (
          <Badge tone={statusTone[resolved.status] ?? 'neutral'} title={`${a.why}: ${a.layers[sources.status ?? ''] ?? ''}`} data-testid="sender-card-status">
            {a.statuses[resolved.status] ?? resolved.status}
          </Badge>
        ) : null}
        <span className="flex-1" />
        {editing ? null : (
          <Button size="sm" variant="ghost" onClick={() => setEditing(true)} data-testid="sender-card-add">
            {mine ? a.edit : a.add}
          </Button>
        )}
      </header>
      {!known && rows.length === 0 ? <p className="mt-1 text-xs text-muted">{a.unknown}</p> : null}
      {rows.length > 0 ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs" title={a.whyHint}>
          {rows.map((row) => (
            <div key={row.key} className="contents" data-testid={`sender-card-${row.key}`}>
              <dt className="text-muted">{row.label}</dt>
              <dd>
                {row.value} <span className="text-muted">({a.why}: {a.layers[row.layer ?? ''] ?? row.layer})</span>
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {resolved.notes.length > 0 ? (
        <ul className="mt-2 list-disc ps-5 text-xs text-muted" aria-label={a.fields.notes}>
          {resolved.notes.map((note, index) => (
            <li key={index}>
              {note} <span>({a.layers[sources.notes[index] ?? ''] ?? ''})</span>
            </li>
          ))}
        </ul>
      ) : null}
      {editing ? <MemberCardEditor address={address} resolution={card.data} onDone={() => setEditing(false)} /> : null}
    </section>
  );
}

/** The member's own card of the address (global, not per mailbox): form of address, tone, notes. */
function MemberCardEditor({ address, resolution, onDone }: { address: string; resolution: ContactResolution; onDone: () => void }) {
  const { t } = useI18n();
  const a = t.webmail.addressBook;
  const own = (layer: string | null) => layer === 'member_contact';
  const [formality, setFormality] = useState(own(resolution.sources.formality) ? (resolution.resolved.formality ?? '') : '');
  const [tone, setTone] = useState(own(resolution.sources.tone) ? (resolution.resolved.tone ?? '') : '');
  const noteIndex = resolution.sources.notes.indexOf('member_contact');
  const [notes, setNotes] = useState(noteIndex >= 0 ? (resolution.resolved.notes[noteIndex] ?? '') : '');
  const save = useSaveMemberCard(onDone);

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      kind: 'contact',
      value: address,
      layer: 'member',
      formality: formality === '' ? null : (formality as 'tu' | 'vous'),
      tone: tone === '' ? null : (tone as 'formal' | 'neutral' | 'casual'),
      personalNotes: notes.trim() === '' ? null : notes,
    });
  }

  return (
    <form onSubmit={submit} className="mt-3 space-y-2" data-testid="sender-card-editor">
      {save.isError ? (
        <Alert tone="danger" testId="sender-card-error">
          {describeError(save.error, t)}
        </Alert>
      ) : null}
      <div className="grid gap-2 sm:grid-cols-2">
        <SelectField label={a.fields.formality} value={formality} onChange={(event) => setFormality(event.target.value)} data-testid="sender-card-formality">
          <option value="">{a.unset}</option>
          {Object.entries(a.formalities).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <SelectField label={a.fields.tone} value={tone} onChange={(event) => setTone(event.target.value)} data-testid="sender-card-tone">
          <option value="">{a.unset}</option>
          {Object.entries(a.tones).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
      </div>
      <TextareaField label={a.personalNotes} value={notes} rows={2} maxLength={2_000} onChange={(event) => setNotes(event.target.value)} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" variant="primary" loading={save.isPending} data-testid="sender-card-save">
          {save.isPending ? a.saving : a.save}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          {a.cancel}
        </Button>
      </div>
    </form>
  );
}

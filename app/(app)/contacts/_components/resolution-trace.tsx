'use client';

/**
 * The resolution with its trace: each field's value and, beside it, the card or default that gave it in
 * a member's words ("from your card for this mailbox"); the notes, each with its layer. So a member sees
 * at once why a draft to this correspondent comes out formal, in French, with that signature.
 */
import { useI18n } from '@/app/i18n/client';
import { traceNotes, traceRows } from '../_lib/trace';
import type { ContactResolution } from '../_lib/api';

export function ResolutionTrace({ resolution, testId = 'contact-trace' }: { resolution: Pick<ContactResolution, 'resolved' | 'sources'>; testId?: string }) {
  const { t } = useI18n();
  const c = t.contacts;
  const rows = traceRows(resolution, c);
  const notes = traceNotes(resolution, c);
  return (
    <section aria-label={c.trace.title} data-testid={testId} className="rounded-lg border border-line bg-subtle/40 p-4">
      <h3 className="text-sm font-semibold">{c.trace.title}</h3>
      <p className="mt-0.5 text-xs text-muted">{c.trace.description}</p>
      <dl className="mt-3 divide-y divide-line">
        {rows.map((row) => (
          <div key={row.field} className="grid gap-1 py-2 sm:grid-cols-[9rem_minmax(0,1fr)]" data-testid={`trace-${row.field}`} data-layer={row.layer ?? ''}>
            <dt className="text-xs font-medium text-muted">{row.label}</dt>
            <dd className="min-w-0">
              <span className={row.value === null ? 'text-sm text-muted italic' : 'block text-sm font-medium break-words whitespace-pre-line'}>
                {row.value ?? c.trace.unset}
              </span>
              <span className="block text-xs text-muted" data-testid="trace-source">
                {row.source}
              </span>
            </dd>
          </div>
        ))}
        <div className="grid gap-1 py-2 sm:grid-cols-[9rem_minmax(0,1fr)]" data-testid="trace-notes">
          <dt className="text-xs font-medium text-muted">{c.trace.notes}</dt>
          <dd className="min-w-0">
            {notes.length === 0 ? (
              <span className="text-sm text-muted italic">{c.trace.noNotes}</span>
            ) : (
              <ul className="space-y-1.5">
                {notes.map((note, index) => (
                  <li key={index} data-layer={note.layer ?? ''}>
                    <span className="block text-sm break-words whitespace-pre-line">{note.text}</span>
                    {note.source ? <span className="block text-xs text-muted">{note.source}</span> : null}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

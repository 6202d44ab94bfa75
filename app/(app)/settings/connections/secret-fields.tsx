'use client';

/** The secret part of the connection form: the four HTTP kinds, or key/value pairs for other types. */
import { useI18n } from '@/app/i18n/client';
import { connectionKinds, type ConnectionKind } from '@/app/lib/mail-types';
import { Button } from '@/app/ui/button';
import { FieldError, Input, SelectField, TextField } from '@/app/ui/field';
import { PlusIcon, TrashIcon } from '@/app/ui/icons';
import type { FieldErrors, HttpDraft, Pair } from './secret-draft';

export function HttpSecretFields({ draft, onChange, errors }: { draft: HttpDraft; onChange: (draft: HttpDraft) => void; errors: FieldErrors }) {
  const { t } = useI18n();
  const c = t.connections.form;
  const set = (patch: Partial<HttpDraft>) => onChange({ ...draft, ...patch });
  return (
    <div className="space-y-3">
      <SelectField label={c.kind} value={draft.kind} onChange={(event) => set({ kind: event.target.value as ConnectionKind })}>
        {connectionKinds.map((kind) => (
          <option key={kind} value={kind}>
            {t.connections.kinds[kind]}
          </option>
        ))}
      </SelectField>
      {draft.kind === 'apiKey' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label={c.headerName} value={draft.headerName} maxLength={128} error={errors.headerName} autoComplete="off" onChange={(event) => set({ headerName: event.target.value })} />
          <TextField label={c.value} type="password" value={draft.value} maxLength={4096} error={errors.value} autoComplete="new-password" onChange={(event) => set({ value: event.target.value })} />
        </div>
      ) : draft.kind === 'bearer' ? (
        <TextField label={c.token} type="password" value={draft.token} maxLength={4096} error={errors.token} autoComplete="new-password" onChange={(event) => set({ token: event.target.value })} />
      ) : draft.kind === 'basic' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label={c.username} value={draft.username} maxLength={256} error={errors.username} autoComplete="off" onChange={(event) => set({ username: event.target.value })} />
          <TextField label={c.password} type="password" value={draft.password} maxLength={4096} error={errors.password} autoComplete="new-password" onChange={(event) => set({ password: event.target.value })} />
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label={c.paramName} value={draft.paramName} maxLength={128} error={errors.paramName} autoComplete="off" onChange={(event) => set({ paramName: event.target.value })} />
          <TextField label={c.value} type="password" value={draft.value} maxLength={4096} error={errors.value} autoComplete="new-password" onChange={(event) => set({ value: event.target.value })} />
        </div>
      )}
    </div>
  );
}

export function KeyValueFields({ pairs, onChange, error }: { pairs: Pair[]; onChange: (pairs: Pair[]) => void; error?: string }) {
  const { t } = useI18n();
  const c = t.connections.form;
  const update = (id: number, patch: Partial<Pair>) => onChange(pairs.map((pair) => (pair.id === id ? { ...pair, ...patch } : pair)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{c.pairs}</legend>
      <p className="text-xs text-muted">{c.pairsHint}</p>
      <ul className="space-y-2">
        {pairs.map((pair, index) => (
          <li key={pair.id} className="flex items-center gap-2">
            <Input aria-label={c.pairKey(index + 1)} placeholder={c.keyPlaceholder} value={pair.key} maxLength={128} autoComplete="off" onChange={(event) => update(pair.id, { key: event.target.value })} />
            <Input
              aria-label={c.pairValue(index + 1)}
              placeholder={c.valuePlaceholder}
              type="password"
              value={pair.value}
              maxLength={4096}
              autoComplete="new-password"
              onChange={(event) => update(pair.id, { value: event.target.value })}
            />
            <Button size="icon" variant="ghost" aria-label={c.removePair(index + 1)} disabled={pairs.length === 1} onClick={() => onChange(pairs.filter((item) => item.id !== pair.id))}>
              <TrashIcon />
            </Button>
          </li>
        ))}
      </ul>
      <Button size="sm" variant="ghost" onClick={() => onChange([...pairs, { id: Math.max(0, ...pairs.map((pair) => pair.id)) + 1, key: '', value: '' }])}>
        <PlusIcon />
        {c.addPair}
      </Button>
      {error ? <FieldError>{error}</FieldError> : null}
    </fieldset>
  );
}

'use client';

/**
 * The assistant: conversations (of one workflow when `workflowId` is given, else all of yours), the
 * messages rendered as Markdown (no raw HTML), the live answer as it streams, a stop button, and the
 * proposals of a workflow-attached conversation as a graph diff against the current draft with
 * Accept (into the draft) and Reject (./proposal-view.tsx). Self-contained: the builder's side panel
 * (with `saveDraft`, so a pending edit is saved before a proposal is accepted, and `onClose`) and the
 * full page mount it.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import Markdown from 'react-markdown';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import { Alert } from '@/app/ui/alert';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { Textarea } from '@/app/ui/field';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { useAssistantMutations, useConversation, useConversations, useLiveAnswer, type AssistantMessage } from './api';
import { errorText, ProposalView, type SaveDraft } from './proposal-view';
import type { Proposal } from './api';

const statusTones: Record<string, BadgeTone> = { idle: 'neutral', running: 'brand', failed: 'danger', cancelled: 'warning' };

/** Markdown without raw HTML (skipped), links opened apart. */
export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="prose prose-sm max-w-none break-words dark:prose-invert [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-subtle [&_pre]:p-2">
      <Markdown
        skipHtml
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" className="underline" />,
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}

function MessageView({ message, text }: { message: AssistantMessage; text: string }) {
  const { t } = useI18n();
  const strings = t.assistant;
  const tools = message.parts.filter((part) => part.type === 'tool_call').map((part) => part.name ?? '');
  return (
    <div className={cn('flex flex-col gap-1', message.role === 'user' ? 'items-end' : 'items-start')} data-testid={`assistant-message-${message.role}`}>
      <span className="text-xs text-muted">{message.role === 'user' ? strings.you : strings.assistant}</span>
      <div className={cn('max-w-full rounded-lg px-3 py-2 text-sm', message.role === 'user' ? 'bg-brand/10' : 'bg-subtle')}>
        {message.role === 'user' ? <p className="whitespace-pre-wrap">{text}</p> : text ? <MarkdownText text={text} /> : message.status === 'streaming' ? <span className="text-muted">{strings.thinking}</span> : null}
        {tools.length > 0 ? (
          <ul className="mt-1 flex flex-wrap gap-1">
            {tools.map((name, index) => (
              <li key={index}>
                <Badge tone="neutral">{strings.usedTool(name)}</Badge>
              </li>
            ))}
          </ul>
        ) : null}
        {message.status === 'failed' ? (
          <p className="mt-1 text-xs text-red-700 dark:text-red-400" data-testid="assistant-message-error" data-code={message.error?.code}>
            {(message.error && strings.errors[message.error.code]) || message.error?.message || strings.messageFailed}
          </p>
        ) : null}
        {message.status === 'cancelled' ? <p className="mt-1 text-xs text-muted">{strings.messageCancelled}</p> : null}
      </div>
    </div>
  );
}

export function ConversationView({ id, saveDraft, onAccepted }: { id: string; saveDraft?: SaveDraft; onAccepted?: (proposal: Proposal) => void }) {
  const { t } = useI18n();
  const strings = t.assistant;
  const answer = useConversation(id);
  const messages = answer.data?.messages ?? [];
  const textOf = useLiveAnswer(id, messages);
  const { turn, cancel } = useAssistantMutations(id);
  const [draft, setDraft] = useState('');
  const conversation = answer.data?.conversation;
  const running = conversation?.status === 'running';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const content = draft.trim();
    if (!content || running) return;
    turn.mutate({ id, content }, { onSuccess: () => setDraft('') });
  };

  if (answer.isPending) return <LoadingState rows={3} />;
  if (answer.isError) return <ErrorState error={answer.error} onRetry={() => answer.refetch()} testId="assistant-error" />;
  const proposals = answer.data.proposals;
  const error = turn.error ?? cancel.error;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 className="truncate text-sm font-semibold">{conversation?.title}</h2>
        <Badge tone={statusTones[conversation?.status ?? 'idle'] ?? 'neutral'}>{strings.statuses[conversation?.status ?? 'idle']}</Badge>
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto" aria-live="polite" data-testid="assistant-messages">
        {messages.length === 0 ? <p className="text-sm text-muted">{strings.empty}</p> : null}
        {messages.map((message) => (
          <div key={message.id} className="flex flex-col gap-2">
            <MessageView message={message} text={textOf(message)} />
            {proposals
              .filter((proposal) => proposal.messageId === message.id)
              .map((proposal) => (
                <ProposalView key={proposal.id} proposal={proposal} conversationId={id} saveDraft={saveDraft} onAccepted={onAccepted} />
              ))}
          </div>
        ))}
      </div>
      {error ? <Alert tone="danger" testId="assistant-turn-error">{errorText(error, t)}</Alert> : null}
      <form className="flex flex-col gap-2" onSubmit={submit}>
        <Textarea
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={strings.placeholder}
          aria-label={strings.placeholder}
          rows={3}
          maxLength={20_000}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit(event);
          }}
          data-testid="assistant-input"
        />
        <div className="flex justify-end gap-2">
          {running ? (
            <Button type="button" size="sm" variant="secondary" loading={cancel.isPending} onClick={() => cancel.mutate({ id })} data-testid="assistant-stop">
              {strings.stop}
            </Button>
          ) : null}
          <Button type="submit" size="sm" variant="primary" disabled={running || !draft.trim()} loading={turn.isPending} data-testid="assistant-send">
            {strings.send}
          </Button>
        </div>
      </form>
    </div>
  );
}

export function AssistantPanel({
  workflowId = null,
  className,
  saveDraft,
  onAccepted,
  onClose,
}: {
  workflowId?: string | null;
  className?: string;
  /** In the builder: saves its pending edit before a proposal is accepted. */
  saveDraft?: SaveDraft;
  /** In the builder: a proposal was accepted (the builder shows the new draft once loaded). */
  onAccepted?: (proposal: Proposal) => void;
  /** In the builder: a close button in the header. */
  onClose?: () => void;
}) {
  const { t } = useI18n();
  const strings = t.assistant;
  const list = useConversations(workflowId);
  const [selected, setSelected] = useState<string | null>(null);
  const { create } = useAssistantMutations(selected);
  const conversations = useMemo(() => list.data?.conversations ?? [], [list.data]);
  const firstId = conversations[0]?.id ?? null;

  useEffect(() => {
    if (selected === null && firstId) setSelected(firstId);
  }, [selected, firstId]);

  const openNew = () =>
    create.mutate(workflowId ? { workflowId } : {}, { onSuccess: (answer) => setSelected(answer.conversation.id) });

  return (
    <Card className={cn('flex min-h-0 flex-col gap-3 p-3', className)} data-testid="assistant-panel">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{strings.title}</h2>
        <span className="flex gap-1">
          <Button size="sm" variant="secondary" loading={create.isPending} onClick={openNew} data-testid="assistant-new">
            {strings.newConversation}
          </Button>
          {onClose ? (
            <Button size="sm" variant="ghost" onClick={onClose} aria-label={strings.close} data-testid="assistant-close">
              ×
            </Button>
          ) : null}
        </span>
      </div>
      {create.error ? <Alert tone="danger" testId="assistant-create-error">{errorText(create.error, t)}</Alert> : null}
      {list.isPending ? (
        <LoadingState rows={2} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} testId="assistant-list-error" />
      ) : conversations.length === 0 ? (
        <p className="text-sm text-muted">{strings.noConversations}</p>
      ) : (
        <label className="flex flex-col gap-1 text-xs text-muted">
          {strings.conversations}
          <select className="rounded-md border border-line-strong bg-surface px-2 py-1 text-sm text-fg" value={selected ?? ''} onChange={(event) => setSelected(event.target.value)} data-testid="assistant-conversations">
            {conversations.map((conversation) => (
              <option key={conversation.id} value={conversation.id}>
                {conversation.title} · {strings.statuses[conversation.status] ?? conversation.status}
              </option>
            ))}
          </select>
        </label>
      )}
      {selected ? <ConversationView key={selected} id={selected} saveDraft={saveDraft} onAccepted={onAccepted} /> : null}
    </Card>
  );
}

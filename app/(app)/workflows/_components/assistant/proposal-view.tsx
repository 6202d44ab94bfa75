'use client';

/**
 * A graph proposal of the assistant: its summary, a preview of what accepting changes (the versions'
 * graph diff between the workflow's current draft and the proposed graph), and Accept / Reject.
 *
 * Accepting writes the draft over the revision the assistant read. In the builder, an edit the
 * member has not saved yet is saved first (`saveDraft`): a proposal is never accepted over work that
 * would then be lost, and when that save moved the draft past what the assistant read, the server
 * answers 409 and the proposal is outdated, which the card says plainly. After a successful accept the
 * workflow's queries are refetched and the builder loads the new draft (use-draft-sync.ts: an
 * external change with nothing unsaved is followed, no conflict).
 */
import { useMemo, useState } from 'react';
import type { Dictionary } from '@/app/i18n';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { LoadingState } from '@/app/ui/states';
import { useWorkflow } from '../../_lib/api';
import { diffGraphs } from '../../_lib/graph-diff';
import { GraphDiffView } from '../versions/graph-diff-view';
import { useAssistantMutations, type Proposal } from './api';

/** Saves the builder's pending edit; true when the server's draft is the editor's. */
export type SaveDraft = () => Promise<boolean>;

const proposalTones: Record<string, BadgeTone> = { pending: 'brand', accepted: 'success', rejected: 'neutral', stale: 'warning' };

export function errorText(error: unknown, t: Dictionary): string {
  const code = appErrorOf(error)?.code;
  return (code && t.assistant.errors[code]) || describeError(error, t);
}

export type AcceptOutcome = { kind: 'accepted' } | { kind: 'unsaved' } | { kind: 'failed'; error: unknown };

/** Saves the pending edit (when there is an editor), then accepts; never accepts over an edit that could not be saved. */
export async function saveThenAccept(saveDraft: SaveDraft | undefined, accept: () => Promise<unknown>): Promise<AcceptOutcome> {
  try {
    if (saveDraft && !(await saveDraft())) return { kind: 'unsaved' };
    await accept();
    return { kind: 'accepted' };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/** A pending proposal built on a draft revision the server has since moved past cannot be accepted. */
export function isOutdated(proposal: Pick<Proposal, 'status' | 'baseDraftRevision'>, draftRevision: number | undefined): boolean {
  return proposal.status === 'pending' && draftRevision !== undefined && draftRevision !== proposal.baseDraftRevision;
}

/** The node ids of a proposed graph (to find them once the builder has loaded it). */
export function proposedNodeIds(graph: Proposal['graph']): string[] {
  const nodes = Array.isArray(graph.nodes) ? (graph.nodes as unknown[]) : [];
  return nodes.flatMap((node) => (typeof node === 'object' && node !== null && typeof (node as { id?: unknown }).id === 'string' ? [(node as { id: string }).id] : []));
}

export function ProposalView({
  proposal,
  conversationId,
  saveDraft,
  onAccepted,
}: {
  proposal: Proposal;
  conversationId: string;
  saveDraft?: SaveDraft;
  onAccepted?: (proposal: Proposal) => void;
}) {
  const { t } = useI18n();
  const strings = t.assistant;
  const workflow = useWorkflow(proposal.workflowId);
  const { accept, reject } = useAssistantMutations(conversationId);
  const [accepting, setAccepting] = useState(false);
  const [problem, setProblem] = useState<{ kind: 'unsaved' } | { kind: 'failed'; error: unknown } | null>(null);
  const draft = workflow.data?.workflow;
  const diff = useMemo(() => (draft ? diffGraphs(draft.graph, proposal.graph) : null), [draft, proposal.graph]);
  const pending = proposal.status === 'pending';
  const outdated = isOutdated(proposal, draft?.draftRevision);

  const onAccept = async () => {
    setProblem(null);
    setAccepting(true);
    const outcome = await saveThenAccept(saveDraft, () => accept.mutateAsync({ id: conversationId, proposalId: proposal.id }));
    setAccepting(false);
    if (outcome.kind !== 'accepted') setProblem(outcome);
    else onAccepted?.(proposal);
  };

  const error = problem?.kind === 'failed' ? problem.error : reject.error;
  return (
    <Card className="flex flex-col gap-2 p-3" data-testid="assistant-proposal" data-status={proposal.status}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{strings.proposal}</h3>
        <Badge tone={proposalTones[proposal.status] ?? 'neutral'}>{strings.proposalStatuses[proposal.status] ?? proposal.status}</Badge>
      </div>
      <p className="text-sm">{proposal.summary}</p>
      {pending ? (
        workflow.isPending ? (
          <LoadingState rows={2} />
        ) : diff ? (
          <div className="max-h-80 overflow-y-auto" data-testid="assistant-proposal-diff">
            <h4 className="mb-1 text-xs text-muted">{strings.previewTitle}</h4>
            <GraphDiffView diff={diff} />
          </div>
        ) : null
      ) : null}
      {outdated && !problem ? (
        <Alert tone="warning" testId="assistant-proposal-outdated">
          {strings.outdatedHint}
        </Alert>
      ) : null}
      {proposal.status === 'stale' && !problem ? <p className="text-xs text-muted">{strings.staleHint}</p> : null}
      {proposal.status === 'accepted' ? (
        <p className="text-xs text-muted" data-testid="assistant-proposal-accepted">
          {strings.acceptedHint}
        </p>
      ) : null}
      {problem?.kind === 'unsaved' ? (
        <Alert tone="danger" testId="assistant-proposal-unsaved">
          {strings.unsavedEdits}
        </Alert>
      ) : null}
      {error ? (
        <Alert tone="danger" testId="assistant-proposal-error">
          {errorText(error, t)}
        </Alert>
      ) : null}
      {pending ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" variant="primary" loading={accepting} disabled={reject.isPending} onClick={() => void onAccept()} data-testid="assistant-accept">
            {strings.accept}
          </Button>
          <Button size="sm" variant="secondary" loading={reject.isPending} disabled={accepting} onClick={() => reject.mutate({ id: conversationId, proposalId: proposal.id })} data-testid="assistant-reject">
            {strings.reject}
          </Button>
          <span className="text-xs text-muted">{saveDraft ? strings.acceptHintBuilder : strings.acceptHint}</span>
        </div>
      ) : null}
    </Card>
  );
}

/** What a turn sends the model besides the new message: the system prompt and the conversation so far. */
import type { AiMessage } from '../../core/ai/types';
import { findHistoryMessages } from './repo';

const historyMessages = 40;

export const systemPrompt = (attached: boolean) =>
  [
    'You are the assistant of Mailflow, a self-hosted service where a member automates their mail with workflows.',
    'A workflow is a graph: `nodes` ({id, type, version, name, params, position {x, y}, onError, disabled}) joined by `connections` ({from, output, to, input?}); the first node is a trigger (a mail arriving, a webhook, a schedule, a failed workflow). Outputs are ports such as `main`, `true`/`false` for a condition.',
    attached
      ? 'You are attached to one workflow. Read it with get_workflow, look up node types and their params with list_node_types, look at recent_executions to explain failures. To change it, call propose_graph with the FULL new graph and a short summary; the member previews the diff and accepts or rejects it. Keep node ids that do not change. Never claim a change was applied: the member decides.'
      : 'No workflow is attached to this conversation: answer questions about the product and about building workflows.',
    'Answer in the language of the member, concisely, in Markdown.',
  ].join('\n');

/** The conversation's last user and assistant messages before this turn's, oldest first (empty ones left out). */
export async function history(conversationId: string, messageId: string): Promise<AiMessage[]> {
  const rows = await findHistoryMessages(conversationId, messageId, historyMessages);
  return rows
    .reverse()
    .filter((row) => row.content.trim() !== '')
    .map((row) => (row.role === 'user' ? { role: 'user' as const, content: row.content } : { role: 'assistant' as const, content: row.content }));
}

/**
 * FORBIDDEN_NODE_TYPES at run time. Graphs are checked when saved, published and test-run, but a
 * version published before the administrator forbade a type, a replay of that version and
 * `retry-failed` would keep running it: so every attempt checks its node's type against the run's
 * member as they are now (administrators are exempt) and fails permanently with
 * `node_type_forbidden` before anything of the node runs; the node's `onError` still applies.
 */
import type { ExecutionActor } from '../../core/auth/access';
import { forbiddenNodeTypesFor } from '../graph/forbidden-nodes';
import { fail } from '../contract/failures';

export function assertNodeTypeAllowed(node: { type: string }, actor: ExecutionActor): void {
  if (!forbiddenNodeTypesFor(actor.member.role).has(node.type)) return;
  throw fail.permanent('node_type_forbidden', {
    message: `The node type ${node.type} is forbidden to members on this instance (FORBIDDEN_NODE_TYPES).`,
    details: { nodeType: node.type },
  });
}

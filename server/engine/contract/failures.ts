/**
 * Node failures: one catalogue of run error codes with their family (spec, Run failure handling:
 * temporary failures are retried, permanent ones go straight to the node's `onError`). Executors throw
 * `fail.transient(code)` / `fail.permanent(code)` or a `RateLimited` (a postponement, not a failure);
 * anything else they throw is classified as temporary ("an unknown nature counts as temporary").
 */

export type FailureKind = 'transient' | 'permanent';

/** Every run error code, its default family and message. A node may override the family per throw. */
export const runErrorCatalogue = {
  invalid_parameter: ['permanent', 'A parameter of the node is not valid.'],
  expression_error: ['permanent', 'An expression of the node could not be evaluated.'],
  node_timeout: ['transient', 'The attempt took longer than the node’s timeout and was interrupted.'],
  step_effect_uncertain: ['permanent', 'The step was cut off while calling a service: the effect may or may not have happened, so it is not retried blindly.'],
  http_blocked: ['permanent', 'The address is blocked by the network guard.'],
  http_error: ['transient', 'The HTTP request failed.'],
  http_status: ['permanent', 'The server answered with an error status.'],
  http_response_too_large: ['permanent', 'The response is larger than the node allows.'],
  http_too_many_redirects: ['permanent', 'The request was redirected too many times.'],
  credential_missing: ['permanent', 'The connection the node uses is missing or was removed.'],
  http_credential_host_not_allowed: ['permanent', 'The connection’s secret may not be sent to this host: it is not one of the connection’s allowed hosts.'],
  http_credential_hosts_missing: ['permanent', 'The organisation connection has no allowed hosts yet: an administrator must set them before it is sent anywhere.'],
  'mail.mailbox_required': ['permanent', 'The node needs a mailbox: none was chosen and the run has no triggering message.'],
  'mail.mailbox_not_active': ['permanent', 'The mailbox is not connected.'],
  'mail.message_not_found': ['permanent', 'The message is not in the mirror any more.'],
  'contacts.mailbox_not_found': ['permanent', 'The mailbox whose point of view the address book was asked for is not one of yours.'],
  'tables.not_found': ['permanent', 'The table does not exist.'],
  'tables.write_refused': ['permanent', 'The table refused the row.'],
  sub_workflow_not_found: ['permanent', 'The workflow to run does not exist or is not yours.'],
  sub_workflow_failed: ['permanent', 'The sub-workflow run failed.'],
  sub_workflow_recursion: ['permanent', 'The workflow to run is already running above this step in its call chain: a workflow may not call itself, directly or through other workflows.'],
  sub_workflow_depth_exceeded: ['permanent', 'Runs call each other too deeply: this run is already at the deepest level a called run may have.'],
  member_run_limit: ['permanent', 'Your runs holding no slot (sub-workflow runs, loop iterations, test runs) stayed at their limit for too long: the step could not start another.'],
  loop_failed: ['permanent', 'Iterations of the loop failed.'],
  loop_timeout: ['permanent', 'The loop did not finish in its time budget.'],
  node_type_unknown: ['permanent', 'The node type or version is not known to this instance.'],
  node_type_forbidden: ['permanent', 'The instance forbids this node type to members (FORBIDDEN_NODE_TYPES).'],
  step_crash_loop: ['permanent', 'The runner stopped too many times while this step ran: it is not tried again.'],
  execution_crash_loop: ['permanent', 'The runner stopped too many times while advancing this run, with no step to blame: it is not advanced again.'],
  execution_timeout: ['permanent', 'The run exceeded its maximum working time.'],
  approval_expired: ['permanent', 'The approval expired before anyone decided.'],
  'llm.no_provider': ['permanent', 'No AI connection can serve this node.'],
  'llm.budget_exceeded': ['permanent', 'The monthly AI budget is spent.'],
  'llm.model_not_allowed': ['permanent', 'The model the node names is not enabled on the AI connection.'],
  ai_call_failed: ['transient', 'The AI call failed.'],
  ai_invalid_output: ['transient', 'The model’s answer did not match the expected structure.'],
  internal: ['transient', 'The step failed unexpectedly.'],
} as const satisfies Record<string, readonly [FailureKind, string]>;

export type RunErrorCode = keyof typeof runErrorCatalogue;

export class NodeFailure extends Error {
  readonly code: RunErrorCode;
  readonly kind: FailureKind;
  readonly details: Record<string, unknown>;
  constructor(code: RunErrorCode, options: { kind?: FailureKind; message?: string; details?: Record<string, unknown> } = {}) {
    super(options.message ?? runErrorCatalogue[code][1]);
    this.name = 'NodeFailure';
    this.code = code;
    this.kind = options.kind ?? runErrorCatalogue[code][0];
    this.details = options.details ?? {};
  }
}

/** A provider asked us to slow down: the step is postponed to `retryAt` and no attempt is consumed. */
export class RateLimited extends Error {
  constructor(readonly retryAt: Date, message = 'The service is limiting requests; the step will try again later.') {
    super(message);
    this.name = 'RateLimited';
  }
}

type FailOptions = { message?: string; details?: Record<string, unknown> };

export const fail = {
  transient: (code: RunErrorCode, options: FailOptions = {}) => new NodeFailure(code, { ...options, kind: 'transient' }),
  permanent: (code: RunErrorCode, options: FailOptions = {}) => new NodeFailure(code, { ...options, kind: 'permanent' }),
};

/** What an executor threw, as the engine records it. Unknown errors count as temporary and reveal nothing. */
export function classifyFailure(error: unknown): NodeFailure {
  if (error instanceof NodeFailure) return error;
  return new NodeFailure('internal');
}

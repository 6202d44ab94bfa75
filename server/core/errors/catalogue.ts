/**
 * Every error code the service can answer, with its HTTP status and default message, in one place.
 * Codes come from the spec's Errors section; the few the spec leaves "not shown" are marked `(ours)`.
 * The code union, the statuses and the OpenAPI enum are all derived from this table.
 */

type Entry = readonly [status: number, message: string];

function area<const A extends string, const T extends Record<string, Entry>>(name: A, codes: T) {
  return Object.fromEntries(Object.entries(codes).map(([reason, entry]) => [`${name}.${reason}`, entry])) as {
    [K in keyof T & string as `${A}.${K}`]: T[K];
  };
}

export const errorCatalogue = {
  ...area('request', {
    bad_request: [400, 'The request does not match the expected schema.'],
    not_found: [404, 'No such resource or route.'],
    payload_too_large: [413, 'The request body is too large.'],
    unsupported_media_type: [415, 'The request body must be JSON.'], // (ours)
    method_not_allowed: [405, 'This method is not allowed on this route.'], // (ours)
    headers_too_large: [431, 'The request headers are too large.'], // (ours) refused by the HTTP server itself
    timeout: [408, 'The request was not received in time.'], // (ours) refused by the HTTP server itself
    // (ours) per-IP limit of a plain route, and a member's requests through their sessions (SESSION_RATE_LIMIT);
    // Retry-After, details.retryAfterSeconds
    rate_limited: [429, 'Too many requests. Wait before trying again.'],
    // (ours) a per-member throttle of what costs or reaches outside (server/core/http/member-throttles.ts);
    // Retry-After, details.retryAfterSeconds, details.bucket, details.limit, details.windowSeconds
    throttled: [429, 'You did this too often in a short time. Wait before trying again.'],
  }),
  ...area('internal', {
    error: [500, 'Something went wrong on our side. Try again later.'], // (ours)
    busy: [503, 'The service is busy. Try again in a moment.'], // (ours) Retry-After, details.retryAfterSeconds
  }),
  ...area('auth', {
    unauthenticated: [401, 'Sign in or send a valid API key.'],
    forbidden: [403, 'Your role does not allow this.'],
    too_many_attempts: [429, 'Too many sign-in attempts. Wait before trying again.'],
    https_required: [403, 'Sign-in requires HTTPS.'],
    cross_origin: [403, 'This request comes from another site. Use the application’s own pages, or an API key.'], // (ours)
    invalid_credentials: [401, 'Email or password is incorrect.'], // (ours)
    wrong_password: [400, 'The current password is incorrect.'], // (ours)
    busy: [503, 'Too many password checks are in progress. Try again in a moment.'], // (ours) Retry-After
  }),
  ...area('api_key', {
    scope_missing: [403, 'The API key lacks the scope this route requires.'], // details.required; for a workflow's graph (ours) also details.missing, nodeTypes, workflowIds, reasons
    session_required: [403, 'This route is reserved to a signed-in member session.'],
    route_not_allowed: [403, 'This route is not open to API keys.'],
    rate_limited: [429, 'Too many requests for this API key. Slow down.'],
    not_found: [404, 'No such API key.'], // (ours)
    limit_reached: [409, 'You hold as many live API keys as allowed: revoke one first.'], // (ours) details.limit (API_KEYS_MAX_PER_MEMBER)
  }),
  ...area('idempotency', {
    invalid_key: [400, 'Idempotency-Key must be 1 to 200 characters.'],
    key_reused: [409, 'This Idempotency-Key was already used with a different request.'], // (ours: status)
    in_progress: [409, 'A request with this Idempotency-Key is still being processed.'], // (ours)
  }),
  ...area('governance', {
    not_found: [404, 'No such member or invitation.'],
    last_admin: [409, 'This would leave the team without an active administrator.'],
    self_target: [409, 'You cannot do this to your own account.'],
    email_taken: [409, 'A member or a pending invitation already uses this address.'], // (ours)
  }),
  ...area('oauth', {
    unsupported_provider: [400, 'This OAuth provider is not supported.'],
    encryption_disabled: [409, 'The instance has no encryption key configured.'],
    invalid_client_id: [400, 'The client id does not have the shape this provider expects.'],
    app_not_configured: [409, 'No OAuth application is registered for this provider.'],
    capability_not_supported: [400, 'This provider does not offer that capability.'],
    // The callback's outcomes, carried by its redirect (`?error=<code>`), never as an envelope.
    state_invalid: [400, 'This connection attempt expired or was already used. Start again.'], // (ours)
    access_denied: [400, 'The provider did not grant access.'], // (ours) the member refused, or the provider answered an error
    scope_missing: [400, 'Some permissions needed for this capability were not granted. Start again and allow them all.'], // (ours)
    exchange_failed: [502, 'The provider refused or did not answer the token exchange. Start again.'], // (ours)
  }),
  ...area('tables', {
    not_found: [404, 'No such table.'],
    limit_reached: [409, 'A limit of the instance was reached.'],
    duplicate_slug: [409, 'A table already uses this slug.'],
    duplicate_column: [400, 'Two columns share the same key.'],
    page_out_of_range: [400, 'The requested page is beyond the last row.'],
    column_not_found: [404, 'No such column in this table.'], // (ours)
    row_not_found: [404, 'No such row in this table.'], // (ours)
    invalid_cells: [400, 'Some cells do not fit their columns.'], // (ours) details.problems
    duplicate_key: [409, 'Another row already has this key.'], // (ours)
    key_column_missing: [409, 'This table has no key column.'], // (ours)
    cells_incompatible: [409, 'Existing cells do not fit the new column settings.'], // (ours) details.rows
    import_rejected: [422, 'Some lines of the file cannot be imported.'], // (ours) details.rejected
    import_in_progress: [409, 'Another import into this table is still running. Try again when it is done.'], // (ours)
    too_many_exports: [429, 'Too many of your exports are still running. Wait for one to finish.'], // (ours) Retry-After
  }),
  ...area('review', {
    bad_request: [400, 'The review request is invalid.'],
    not_found: [404, 'No such review item.'],
    already_resolved: [409, 'This review item was already sent or rejected.'],
    content_gone: [410, 'The content of this review item is gone.'],
    not_unknown: [409, 'Only a send whose outcome is unknown can be resolved.'], // (ours)
  }),
  ...area('credentials', {
    encryption_disabled: [409, 'The instance has no encryption key configured.'],
  }),
  ...area('imap', {
    host_not_found: [422, 'The IMAP host name could not be resolved.'],
    unreachable: [422, 'The IMAP server could not be reached.'],
    tls_failed: [422, 'The TLS handshake with the IMAP server failed.'],
    auth_failed: [422, 'The IMAP server refused the credentials.'],
  }),
  ...area('smtp', {
    host_not_found: [422, 'The SMTP host name could not be resolved.'],
    unreachable: [422, 'The SMTP server could not be reached.'],
    tls_failed: [422, 'The TLS handshake with the SMTP server failed.'],
    auth_failed: [422, 'The SMTP server refused the credentials.'],
  }),
  ...area('mailbox', {
    not_found: [404, 'No such mailbox.'],
    not_active: [409, 'The mailbox is not active.'],
    resync_window_invalid: [400, 'The resync window must start in the past and within 92 days.'],
  }),
  ...area('credential', {
    bad_request: [400, 'The credential is invalid.'],
    admin_required: [403, 'Only an administrator can do this.'],
    encryption_disabled: [409, 'The instance has no encryption key configured.'],
    in_use: [409, 'A mailbox uses this connection. Disconnect the mailbox first.'], // (ours) details.mailboxId, details.address
    llm_member_keys_disabled: [403, 'This instance does not let members use their own AI keys.'], // (ours) LLM_MEMBER_KEYS
  }),
  ...area('support', {
    bad_request: [400, 'The support request is invalid.'],
    not_found: [404, 'No such support thread.'],
    not_linked: [409, 'This instance is not linked to the control plane of the team operating it: support requests cannot be sent.'],
  }),
  ...area('llm', {
    connection_not_found: [404, 'No such AI connection.'],
    encryption_disabled: [409, 'The instance has no encryption key configured.'],
    invalid_base_url: [400, 'The base URL is not allowed.'],
    api_key_required: [400, 'This AI vendor needs an API key.'],
    connection_label_taken: [409, 'Another AI connection uses this label.'],
    model_not_allowed: [400, 'This model is not enabled on this AI connection.'], // (ours) details.connectionId, details.model
    budget_exceeded: [402, 'The monthly AI budget is spent: no model call until next month or a higher budget.'], // (ours) details.scope, limitUsd, spentUsd
  }),
  ...area('assistant', {
    bad_request: [400, 'The assistant request is invalid.'],
    model_not_allowed: [400, 'This model is not allowed.'],
    tools_not_supported: [400, 'This model does not support tools.'],
    not_found: [404, 'No such conversation or proposal.'], // (ours) details.kind
    turn_running: [409, 'A turn of this conversation is already running; wait for it or cancel it.'], // (ours)
    no_provider: [409, 'No AI provider can serve the assistant: ask an administrator to add an AI connection.'], // (ours)
    proposal_decided: [409, 'This proposal was already accepted, rejected or went stale.'], // (ours) details.status
  }),
  ...area('templates', {
    not_found: [404, 'No such template.'],
    forbidden_node: [409, 'The template uses a node type that is not allowed here.'],
    read_only: [409, 'A starter template cannot be changed or deleted; disable it instead.'], // (ours)
    // (ours) an existing table chosen at install lacks a column the template needs, or has another type there;
    // details {table, column, reason: missing|wrong_type|not_key, expected, actual}
    table_mismatch: [409, 'The chosen table does not have the columns the template needs.'],
  }),
  ...area('webmail', {
    bad_request: [400, 'The mail request is invalid.'],
    thread_not_found: [404, 'No such thread.'],
    thread_too_large: [409, 'The thread is too large for this action.'],
    message_not_found: [404, 'No such message.'],
    unsupported_action: [400, 'This action is not supported here.'],
    undo_expired: [409, 'It is too late to undo this send: it has left or is leaving.'], // (ours) compose's undo window
    unsubscribe_unavailable: [409, 'This message offers no one-click unsubscribe.'], // (ours) RFC 8058
    unsubscribe_failed: [502, 'The list did not accept the unsubscribe request.'], // (ours) RFC 8058
  }),
  ...area('approval', {
    not_found: [404, 'No such approval.'],
    already_decided: [409, 'This approval was already decided.'],
  }),
  ...area('dashboard', {
    bad_request: [400, 'The dashboard request is invalid.'],
    forbidden: [403, 'You cannot see these figures.'],
  }),
  ...area('contacts', {
    mailbox_not_found: [404, 'No such mailbox.'],
    signature_not_found: [404, 'No such signature.'], // (ours)
    signature_limit_reached: [409, 'You already have as many signatures as allowed.'], // (ours)
    import_rejected: [422, 'Some lines of the file cannot be imported.'], // (ours) details.count, details.rejected
  }),
  ...area('analyzer', {
    mailbox_not_found: [404, 'No such mailbox.'],
    report_not_found: [404, 'No such analysis report.'],
    opportunity_not_found: [404, 'No such opportunity in the latest analysis report.'], // (ours)
  }),
  ...area('incident', { not_found: [404, 'No such incident.'] }),
  ...area('workflow', {
    execution_limit_invalid: [409, 'The execution limits exceed the instance ceilings.'],
    not_found: [404, 'No such workflow.'], // (ours)
    invalid_graph: [400, 'The workflow graph is not valid.'], // (ours) details.issues [{path, message}]
    invalid_error_workflow: [409, 'The error workflow must be another of your workflows that starts with the workflow-failure trigger.'], // (ours)
    archived: [409, 'This workflow is archived.'], // (ours)
    not_published: [409, 'This workflow has no published version.'], // (ours)
    no_trigger: [409, 'The workflow has no trigger node to publish.'], // (ours)
    version_not_found: [404, 'No such version of this workflow.'], // (ours)
    test_message_not_found: [400, 'A pinned test message is not one of your mirrored messages.'], // (ours) details.messageIds
    trigger_data_too_large: [400, 'The trigger data of a test run is above 256 KB.'], // (ours)
    revision_conflict: [409, 'The draft changed since you loaded it (another tab or window).'], // (ours) details.draftRevision
    run_limit_reached: [409, 'You have too many runs in progress that hold no slot (test runs, sub-workflow runs, loop iterations): wait for some to end.'], // (ours) details.limit
  }),
  ...area('execution', {
    not_found: [404, 'No such execution.'], // (ours)
    not_replayable: [409, 'This execution cannot be replayed.'], // (ours) details.reason
    not_cancellable: [409, 'This execution has already finished.'], // (ours)
    // (ours) issue 24 §4; details.reason: not_finished, test_run, called_run (details.parentExecutionId), too_many_effects (details.limit)
    not_undoable: [409, 'This execution’s mailbox changes cannot be undone.'],
    undo_in_progress: [409, 'This execution is being undone by another request. Try again in a moment.'], // (ours) details.retryAfterSeconds
  }),
  ...area('eval', {
    not_found: [404, 'No such evaluation run.'], // (ours)
    no_cases: [409, 'There is nothing to evaluate: no mirrored message in the trigger’s mailboxes for this source.'], // (ours)
    source_unsupported: [409, 'This workflow does not start on mail: evaluate it on given trigger data.'], // (ours)
    already_running: [409, 'An evaluation of this workflow is still running.'], // (ours) details.evalRunId
    not_cancellable: [409, 'This evaluation run has already finished.'], // (ours)
  }),
  ...area('webhook', {
    not_found: [404, 'No such webhook.'], // (ours) unknown token, or the workflow cannot start
    signature_required: [401, 'This webhook requires a signature (X-Signature and X-Signature-Timestamp).'], // (ours)
    signature_invalid: [401, 'The webhook signature does not match, or its timestamp is outside the allowed window.'], // (ours)
  }),
  ...area('send_hold', { not_found: [404, 'No such send hold.'] }), // (ours)
  ...area('exclusion', {
    not_found: [404, 'No such exclusion.'], // (ours)
    duplicate: [409, 'This sender or domain is already excluded.'], // (ours)
    limit_reached: [409, 'The list of excluded senders is full: remove one first.'], // (ours) details.limit
  }),
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function statusOf(code: ErrorCode): number {
  return errorCatalogue[code][0];
}

export function defaultMessageOf(code: ErrorCode): string {
  return errorCatalogue[code][1];
}

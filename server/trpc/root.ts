/** Every route of the service. The REST surface and the UI's tRPC client both come from this router. */
import { apiKeysRouter } from '../domains/api-keys/router';
import { approvalsRouter } from '../domains/approvals/router';
import { assistantRouter } from '../domains/assistant/router';
import { auditRouter } from '../domains/audit/router';
import { authRouter } from '../domains/auth/router';
import { composeRouter } from '../domains/compose/router';
import { connectionsRouter } from '../domains/connections/router';
import { contactsRouter } from '../domains/contacts/router';
import { dashboardRouter } from '../domains/dashboard/router';
import { analyzerRouter } from '../domains/analyzer/router';
import { evalRunsRouter } from '../domains/eval-runs/router';
import { executionsRouter } from '../domains/executions/router';
import { exclusionsRouter } from '../domains/exclusions/router';
import { instanceRouter } from '../domains/instance/router';
import { journalRouter } from '../domains/journal/router';
import { llmRouter } from '../domains/llm/router';
import { mailboxesRouter } from '../domains/mailboxes/router';
import { mailRouter } from '../domains/mail/router';
import { membersRouter } from '../domains/members/router';
import { nodeTypesRouter } from '../domains/node-types/router';
import { notificationsRouter } from '../domains/notifications/router';
import { oauthRouter } from '../domains/oauth/router';
import { onboardingRouter } from '../domains/onboarding/router';
import { sendGuardRouter } from '../domains/send-guard/router';
import { supportRouter } from '../domains/support/router';
import { reviewRouter } from '../domains/review/router';
import { tablesRouter } from '../domains/tables/router';
import { templatesRouter } from '../domains/templates/router';
import { workflowsRouter } from '../domains/workflows/router';
import { router } from './procedures';

export const appRouter = router({
  auth: authRouter,
  apiKeys: apiKeysRouter,
  members: membersRouter,
  audit: auditRouter,
  instance: instanceRouter,
  tables: tablesRouter,
  mailboxes: mailboxesRouter,
  notifications: notificationsRouter,
  connections: connectionsRouter,
  oauth: oauthRouter,
  mail: mailRouter,
  executions: executionsRouter,
  workflows: workflowsRouter,
  journal: journalRouter,
  exclusions: exclusionsRouter,
  nodeTypes: nodeTypesRouter,
  sendGuard: sendGuardRouter,
  approvals: approvalsRouter,
  review: reviewRouter,
  compose: composeRouter,
  templates: templatesRouter,
  evalRuns: evalRunsRouter,
  llm: llmRouter,
  analyzer: analyzerRouter,
  assistant: assistantRouter,
  onboarding: onboardingRouter,
  dashboard: dashboardRouter,
  contacts: contactsRouter,
  support: supportRouter,
});

export type AppRouter = typeof appRouter;

/**
 * French strings, composed of the sections' French dictionaries (see en.ts). Typed as the English
 * dictionary's shape: a missing or extra key fails `tsc`.
 * French typography: a non-breaking space (\u00a0) before « ? », « : » and « ! ».
 */
import type { Dictionary } from './en';
import { frTables } from '../(app)/tables/_i18n/fr-tables';
import { frMail, frMailboxes, frMailboxHealth, frNotifications } from './fr-mail';
import { frConnections, frOAuthApps } from './fr-connections';
import { frWebmail } from '../(app)/messages/_i18n/fr-webmail';
import { frCompose } from '../(app)/messages/_i18n/fr-compose';
import { frExecutions, frWorkflows } from '../(app)/workflows/_i18n/fr-engine';
import { frExclusions } from '../(app)/settings/exclusions/_i18n/fr-exclusions';
import { frSendGuard } from '../(app)/sending/_i18n/fr-guard';
import { frApprovals } from '../(app)/approvals/_i18n/fr-approvals';
import { frReview, frSending } from '../(app)/review/_i18n/fr-review';
import { frTemplates } from '../(app)/templates/_i18n/fr-templates';
import { frBuilder } from '../(app)/workflows/_i18n/fr-builder';
import { frVersions } from '../(app)/workflows/_i18n/fr-versions';
import { frParams } from '../(app)/workflows/_i18n/fr-params';
import { frAnalyzer } from '../(app)/analyzer/_i18n/fr-analyzer';
import { frAssistant } from '../(app)/assistant/_i18n/fr-assistant';
import { frEval } from '../(app)/workflows/_i18n/fr-eval';
import { frWhy } from '../(app)/workflows/_i18n/fr-why';
import { frUndo } from '../(app)/executions/_i18n/fr-undo';
import { frJournal, frListWindow } from '../(app)/journal/_i18n/fr-journal';
import { frAiAdmin } from '../(app)/admin/ai/_i18n/fr-ai-admin';
import { frAiKeys } from '../(app)/settings/_i18n/fr-ai-keys';
import { frOnboarding } from '../(app)/_onboarding/_i18n/fr-onboarding';
import { frDashboard } from '../(app)/_dashboard/_i18n/fr-dashboard';
import { frContacts } from '../(app)/contacts/_i18n/fr-contacts';
import { frSupport } from '../(app)/support/_i18n/fr-support';
import { frShell } from './fr-shell';
import { frAuth } from '../(auth)/_i18n/fr-auth';
import { frApiKeys } from '../(app)/settings/api-keys/_i18n/fr-api-keys';
import { frAdmin } from '../(app)/admin/_i18n/fr-admin';
import { frErrors } from './fr-errors';

export const fr: Dictionary = {
  ...frShell,
  ...frAuth,
  ...frApiKeys,
  ...frAdmin,
  ...frErrors,
  tables: frTables,
  workflows: frWorkflows,
  executions: frExecutions,
  approvals: frApprovals,
  notifications: frNotifications,
  mail: frMail,
  mailboxes: frMailboxes,
  mailboxHealth: frMailboxHealth,
  connections: frConnections,
  exclusions: frExclusions,
  sendGuard: frSendGuard,
  oauthApps: frOAuthApps,
  webmail: frWebmail,
  review: frReview,
  onboarding: frOnboarding,
  dashboard: frDashboard,
  sending: frSending,
  compose: frCompose,
  templates: frTemplates,
  builder: frBuilder,
  versions: frVersions,
  params: frParams,
  eval: frEval,
  why: frWhy,
  undo: frUndo,
  journal: frJournal,
  listWindow: frListWindow,
  analyzer: frAnalyzer,
  assistant: frAssistant,
  aiAdmin: frAiAdmin,
  aiKeys: frAiKeys,
  contacts: frContacts,
  support: frSupport,
};

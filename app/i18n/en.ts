/**
 * English strings of the interface: the reference dictionary, composed of one dictionary per section.
 * A section's dictionary sits beside it (`app/(app)/<section>/_i18n/en-*.ts`, its French twin beside it);
 * the ones several sections read (the shell, mail, connections, the error texts) stay in this folder.
 * This file only composes: `fr.ts` composes the French twins and is typed as `Dictionary`, so a key
 * missing there (or an extra one) fails `tsc`. Strings that take values are functions.
 */
import { enTables } from '../(app)/tables/_i18n/en-tables';
import { enMail, enMailboxes, enMailboxHealth, enNotifications } from './en-mail';
import { enConnections, enOAuthApps } from './en-connections';
import { enWebmail } from '../(app)/messages/_i18n/en-webmail';
import { enCompose } from '../(app)/messages/_i18n/en-compose';
import { enExecutions, enWorkflows } from '../(app)/workflows/_i18n/en-engine';
import { enExclusions } from '../(app)/settings/exclusions/_i18n/en-exclusions';
import { enSendGuard } from '../(app)/sending/_i18n/en-guard';
import { enApprovals } from '../(app)/approvals/_i18n/en-approvals';
import { enReview, enSending } from '../(app)/review/_i18n/en-review';
import { enTemplates } from '../(app)/templates/_i18n/en-templates';
import { enBuilder } from '../(app)/workflows/_i18n/en-builder';
import { enVersions } from '../(app)/workflows/_i18n/en-versions';
import { enParams } from '../(app)/workflows/_i18n/en-params';
import { enAnalyzer } from '../(app)/analyzer/_i18n/en-analyzer';
import { enAssistant } from '../(app)/assistant/_i18n/en-assistant';
import { enEval } from '../(app)/workflows/_i18n/en-eval';
import { enWhy } from '../(app)/workflows/_i18n/en-why';
import { enUndo } from '../(app)/executions/_i18n/en-undo';
import { enJournal, enListWindow } from '../(app)/journal/_i18n/en-journal';
import { enAiAdmin } from '../(app)/admin/ai/_i18n/en-ai-admin';
import { enAiKeys } from '../(app)/settings/_i18n/en-ai-keys';
import { enOnboarding } from '../(app)/_onboarding/_i18n/en-onboarding';
import { enDashboard } from '../(app)/_dashboard/_i18n/en-dashboard';
import { enContacts } from '../(app)/contacts/_i18n/en-contacts';
import { enSupport } from '../(app)/support/_i18n/en-support';
import { enShell } from './en-shell';
import { enAuth } from '../(auth)/_i18n/en-auth';
import { enApiKeys } from '../(app)/settings/api-keys/_i18n/en-api-keys';
import { enAdmin } from '../(app)/admin/_i18n/en-admin';
import { enErrors } from './en-errors';

export const en = {
  ...enShell,
  ...enAuth,
  ...enApiKeys,
  ...enAdmin,
  ...enErrors,
  tables: enTables,
  workflows: enWorkflows,
  executions: enExecutions,
  approvals: enApprovals,
  notifications: enNotifications,
  mail: enMail,
  mailboxes: enMailboxes,
  mailboxHealth: enMailboxHealth,
  connections: enConnections,
  exclusions: enExclusions,
  sendGuard: enSendGuard,
  oauthApps: enOAuthApps,
  webmail: enWebmail,
  review: enReview,
  onboarding: enOnboarding,
  dashboard: enDashboard,
  sending: enSending,
  compose: enCompose,
  templates: enTemplates,
  builder: enBuilder,
  versions: enVersions,
  params: enParams,
  eval: enEval,
  why: enWhy,
  undo: enUndo,
  journal: enJournal,
  listWindow: enListWindow,
  analyzer: enAnalyzer,
  assistant: enAssistant,
  aiAdmin: enAiAdmin,
  aiKeys: enAiKeys,
  contacts: enContacts,
  support: enSupport,
};

export type Dictionary = typeof en;

/**
 * The layering is enforced by ESLint (eslint.config.mjs, run by `npm test`): server/core imports no
 * domain, tRPC, HTTP layer or Next; domain code other than routers imports no tRPC; the runner imports
 * no tRPC, web server code or Next; only server/http/page-handler.ts imports Next on the server. A rule
 * whose import fails to resolve passes silently, so this lints probe sources as if they were real files
 * of each layer and checks that every forbidden import is reported and every allowed one is not.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const boundaryRules = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax']);
// The project's own configuration (its zones and patterns), with only the layering rules run and no type
// information: the type-aware rules would make ESLint build a TypeScript program of the whole tree first
// (well over a minute on a loaded 2-core machine) for findings this test filters out anyway. Both switches are off:
// the configuration names the tsconfig program (`project`), and the project service would build one too.
const withoutTypeInformation = { languageOptions: { parserOptions: { project: false, projectService: false } } };
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => boundaryRules.has(ruleId),
  overrideConfig: withoutTypeInformation,
});

/** The layering rules reported for `source` linted as the existing file `asFile`. */
async function boundaryFindings(asFile: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: path.join(root, asFile) });
  return result.messages
    .filter((message) => message.ruleId !== null && boundaryRules.has(message.ruleId))
    .map((message) => message.message);
}

describe('layering boundaries (ESLint)', { timeout: 60_000 }, () => {
  it.each([
    ['core imports a domain', 'server/core/audit.ts', "import { listTables } from '../domains/tables/service';", /imports no domain/],
    ['core imports tRPC code', 'server/core/auth/access.ts', "import { route } from '../../trpc/meta';", /imports no tRPC/],
    ['core imports the HTTP layer', 'server/core/audit.ts', "import { handleApiRequest } from '../http/api-handler';", /no HTTP layer/],
    ['core imports the tRPC package', 'server/core/audit.ts', "import { TRPCError } from '@trpc/server';", /tRPC stays/],
    ['core imports Next', 'server/core/audit.ts', "import next from 'next';", /Next\.js/],
    ['a service imports tRPC code', 'server/domains/tables/service.ts', "import { procedure } from '../../trpc/procedures';", /only routers do/],
    ['a nested service imports the tRPC package', 'server/domains/tables/rows/service.ts', "import { TRPCError } from '@trpc/server';", /tRPC stays/],
    ['a repo imports the HTTP layer', 'server/domains/auth/repo.ts', "import { handleApiRequest } from '../../http/api-handler';", /no HTTP layer/],
    ['the runner imports tRPC code', 'runner/main.ts', "import { appRouter } from '../server/trpc/root';", /runner imports no tRPC/],
    ['the runner imports web server code', 'runner/main.ts', "import { handleApiRequest } from '../server/http/api-handler';", /no web server code/],
    ['the runner imports React', 'runner/main.ts', "import { useState } from 'react';", /React belongs to app/],
    ['another HTTP file imports Next', 'server/http/api-handler.ts', "import next from 'next';", /Next\.js/],
  ])('reports %s', async (_name, file, source, expected) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => expected.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['core uses core', 'server/core/auth/access.ts', "import { hit } from '../http/rate-limit';"],
    ['a router uses tRPC', 'server/domains/tables/router.ts', "import { procedure } from '../../trpc/procedures';"],
    ['a service uses another domain’s service and core', 'server/domains/members/service.ts', "import { revokeSessions } from '../auth';\nimport { db } from '../../core/db';"],
    ['the runner uses domain housekeeping', 'runner/main.ts', "import { purgeOldTableWriteEffects } from '../server/domains/tables';"],
    ['the page handler uses Next', 'server/http/page-handler.ts', "import next from 'next';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('no import circles (ESLint)', { timeout: 120_000 }, () => {
  // import-x/no-cycle follows the probe's imports through the real files; it sees nothing unless import-x
  // reads TypeScript modules (`import-x/extensions`), so a broken setting shows here as a missing report.
  const cycles = new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-cycle',
    overrideConfig: withoutTypeInformation,
  });
  async function cycleFindings(asFile: string, source: string): Promise<string[]> {
    const [result] = await cycles.lintText(`${source}\nexport {};\n`, { filePath: path.join(root, asFile) });
    return result.messages.filter((message) => message.ruleId === 'import-x/no-cycle').map((message) => message.message);
  }

  it.each([
    ['a field family imports the form’s dispatcher (which imports the families)', 'app/(app)/workflows/_components/params/field-parts.tsx', "import { SchemaField } from './schema-field';"],
    ['the OpenAPI document imports the plain routes (which serve it)', 'server/openapi/document.ts', "import { plainRoutes } from '../http/plain/routes';"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await cycleFindings(file, source);
    expect(findings.some((finding) => /Dependency cycle/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a field family imports the shared field parts', 'app/(app)/workflows/_components/params/composite-fields.tsx', "import { NestedField } from './field-parts';"],
    ['the plain routes build the document they serve', 'server/http/plain/routes.ts', "import { openApiDocumentOf } from '../../openapi/document';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await cycleFindings(file, source)).toEqual([]);
  });
});

describe('ui conventions (ESLint)', { timeout: 60_000 }, () => {
  it.each([
    ['a component calls useTRPC', 'app/(app)/approvals/approvals-view.tsx', "import { useTRPC } from '@/app/lib/trpc';"],
    ['a section hook calls the tRPC client', 'app/(app)/messages/use-shortcuts.ts', "import { useTRPCClient } from '../../lib/trpc';"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /Components never call tRPC/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a section facade calls useTRPC', 'app/(app)/approvals/_lib/api.ts', "import { useTRPC } from '@/app/lib/trpc';"],
    ['a second facade of a section calls useTRPC', 'app/(app)/messages/_lib/thread-actions-api.ts', "import { useTRPC } from '@/app/lib/trpc';"],
    ['a component uses a facade hook and the router types', 'app/(app)/approvals/approvals-view.tsx', "import { useApprovalPages } from './_lib/api';\nimport type { RouterOutputs } from '@/app/lib/trpc';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('engine layering', { timeout: 60_000 }, () => {
  it.each([
    ['a node imports the run machinery', 'server/engine/nodes/flow/wait.node.ts', "import { startExecution } from '../../run/start';", /stands on the engine’s contract only/],
    ['a node imports an adapter', 'server/engine/nodes/http/request.node.ts', "import { createHttpCapability } from '../../../engine-adapters/http';", /stands on the engine’s contract only/],
    ['a node imports a domain', 'server/engine/nodes/tables/shared.ts', "import type { Cells } from '../../../domains/tables/rows/engine-api';", /imports no domain/],
    ['the run machinery imports a domain', 'server/engine/run/finish.ts', "import { notify } from '../../domains/notifications/notify';", /imports no domain/],
    ['the engine imports its adapters', 'server/engine/run/run-step.ts', "import { createCapabilities } from '../../engine-adapters/create';", /never imports its adapters/],
    ['the contract imports the run machinery', 'server/engine/contract/define-node.ts', "import { startExecution } from '../run/start';", /bottom of the engine/],
    ['a domain reaches inside the engine', 'server/domains/workflows/service.ts', "import { validateGraph } from '../../engine/graph/validate-graph';", /public entry, server\/engine\/index\.ts/],
    ['a router reaches inside the engine', 'server/domains/executions/router.ts', "import { cancelExecutions } from '../../engine/run/cancel';", /public entry, server\/engine\/index\.ts/],
    ['an adapter reaches a domain’s internals', 'server/engine-adapters/send.ts', "import { createOutbound } from '../domains/outbound/create';", /through its faces only/],
    ['an adapter reaches inside the engine', 'server/engine-adapters/create.ts', "import { runStep } from '../engine/run/run-step';", /server\/engine\/index\.ts, server\/engine\/contract/],
  ])('reports %s', async (_name, file, source, expected) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => expected.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a node uses the contract, expressions and core', 'server/engine/nodes/flow/wait.node.ts', "import { fail } from '../../contract/failures';\nimport { hasExpression } from '../../expressions';\nimport { config } from '../../../core/config';"],
    ['the run machinery uses the contract and the composition', 'server/engine/run/finish.ts', "import { fail } from '../contract/failures';\nimport { engineComposition } from '../composition';"],
    ['the contract uses core', 'server/engine/contract/limits.ts', "import { config } from '../../core/config';"],
    ['a domain uses the engine entry and the contract', 'server/domains/workflows/service.ts', "import { validateGraph } from '../../engine';\nimport { graphInput } from '../../engine/contract/graph';"],
    ['an adapter uses domain faces and the engine entry', 'server/engine-adapters/send.ts', "import { createOutbound } from '../domains/outbound/engine-api';\nimport { insertRow } from '../domains/tables/rows/engine-api';\nimport { composeEngineWith } from '../engine';\nimport { fail } from '../engine/contract/failures';"],
    ['a domain test reaches inside the engine', 'server/domains/workflows/lifecycle.int.test.ts', "import { startExecution } from '../../engine/run/start';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('domain faces', { timeout: 60_000 }, () => {
  it.each([
    ['a service imports another domain’s repo', 'server/domains/templates/service.ts', "import { findOwnedOrThrow } from '../workflows/repo';"],
    ['a nested service imports another domain’s service', 'server/domains/tables/rows/service.ts', "import { notify } from '../../notifications/notify';"],
    ['a repo imports another domain’s presenter', 'server/domains/compose/repo.ts', "import { recordOf } from '../mail/present';"],
    ['a router imports another domain’s internals', 'server/domains/analyzer/router.ts', "import { needFor } from '../workflows/graph-scopes';"],
    ['the HTTP layer imports a domain’s internals', 'server/http/table-export-route.ts', "import { openTableExport } from '../domains/tables/csv/service';"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /only through its public face/.test(finding)), findings.join('\n')).toBe(true);
  });

  it('reports a schemas.ts that takes another domain’s shapes from its index.ts (the whole domain in the browser bundle)', async () => {
    const findings = await boundaryFindings('server/domains/templates/schemas.ts', "import { columnTypes } from '../tables';");
    expect(findings.some((finding) => /from its schemas\.ts \(browser-safe\)/.test(finding)), findings.join('\n')).toBe(true);
  });

  it('allows a schemas.ts that takes another domain’s shapes from its schemas.ts', async () => {
    expect(await boundaryFindings('server/domains/templates/schemas.ts', "import { columnTypes } from '../tables/schemas';\nimport { z } from 'zod';")).toEqual([]);
  });

  it.each([
    ['a service uses another domain’s face', 'server/domains/templates/service.ts', "import { findOwnedOrThrow } from '../workflows';\nimport { notify } from '../notifications/index';"],
    ['a domain uses another domain’s engine face', 'server/domains/templates/service.ts', "import { expireApproval } from '../approvals/engine-api';\nimport { lookupByKey } from '../tables/rows/engine-api';"],
    ['a domain uses its own files, nested ones too', 'server/domains/tables/rows/service.ts', "import { findTableOrThrow } from '../repo';\nimport { columnTypes } from '../schemas';\nimport { exportTable } from '../csv/export';"],
    ['a router uses another domain’s face', 'server/domains/analyzer/router.ts', "import { needFor } from '../workflows';"],
    ['the HTTP layer uses a domain’s face', 'server/http/table-export-route.ts', "import { openTableExport } from '../domains/tables';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });

  it.each([
    ['a service with a repo queries through db()', 'server/domains/workflows/service.ts', "import { db } from '../../core/db';\nexport const rows = () => db().workflow.findMany();"],
    ['a service with a repo queries on its transaction', 'server/domains/templates/service.ts', "import { db } from '../../core/db';\nexport const run = () => db().$transaction((tx) => tx.template.count());"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /only the repo queries the database/.test(finding)), findings.join('\n')).toBe(true);
  });

  it('allows a service that opens the transaction and hands its tx to the repo', async () => {
    const source = "import { db } from '../../core/db';\nimport { countInstall } from './repo';\nexport const run = (id: string) => db().$transaction((tx) => countInstall(id, tx));";
    expect(await boundaryFindings('server/domains/templates/service.ts', source)).toEqual([]);
  });
});

describe('mail in its own place', { timeout: 60_000 }, () => {
  it.each([
    ['core imports mail', 'server/core/config.ts', "import { isAddress } from '../mail/addresses';", /kernel and imports no mail/],
    ['mail imports a domain', 'server/mail/lease.ts', "import { notify } from '../domains/notifications';", /server\/mail stands on server\/core only/],
    ['mail imports the engine', 'server/mail/mirror/writer.ts', "import { startExecution } from '../../engine';", /server\/mail stands on server\/core only/],
    ['mail imports an engine adapter', 'server/mail/send/transport.ts', "import { composeEngine } from '../../engine-adapters/compose';", /server\/mail stands on server\/core only/],
    ['mail imports tRPC code', 'server/mail/content.ts', "import { appRouter } from '../trpc/root';", /server\/mail stands on server\/core only/],
    ['mail imports the tRPC package', 'server/mail/content.ts', "import { TRPCError } from '@trpc/server';", /tRPC stays/],
    ['mail imports the runner', 'server/mail/lease.ts', "import { runnerIdentity } from '../../runner/runner-identity';", /imports nothing from the runner/],
    ['a page imports mail', 'app/(app)/approvals/approvals-view.tsx', "import { isAddress } from '../../../server/mail/addresses';", /reach mail through a domain/],
    ['tRPC imports mail', 'server/trpc/root.ts', "import { probeImap } from '../mail/imap/probe';", /reach mail through a domain/],
    ['a node imports mail beyond the address grammar', 'server/engine/nodes/mail/outbound.ts', "import { buildMime } from '../../../mail/send/mime';", /stands on the engine’s contract only/],
  ])('reports %s', async (_name, file, source, expected) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => expected.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['mail uses core', 'server/mail/lease.ts', "import { db } from '../core/db';\nimport { log } from '../core/log';"],
    ['a mail test uses the test helpers', 'server/mail/content.int.test.ts', "import { useTestDatabase } from '../testing/test-database';"],
    ['a domain uses mail', 'server/domains/mailboxes/connect.ts', "import { probeImap } from '../../mail/imap/probe';"],
    ['an engine adapter uses mail', 'server/engine-adapters/send.ts', "import { buildMime } from '../mail/send/mime';"],
    ['the runner uses mail', 'runner/mail/session.ts', "import { openAdapter } from '../../server/mail/adapters';"],
    ['the HTTP start-up uses mail', 'server/http/main.ts', "import { setOAuthTokenSource } from '../mail/providers/token-source';"],
    ['a node uses the address grammar', 'server/engine/nodes/mail/outbound.ts', "import { parseAddressList } from '../../../mail/addresses';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('the runner as plumbing', { timeout: 60_000 }, () => {
  it.each([
    ['a domain imports a runner task', 'server/domains/eval-runs/drive.ts', "import { evalRunTask } from '../../../runner/tasks/eval-run.task';"],
    ['a nested domain file imports the runner', 'server/domains/outbound/send/pipeline.ts', "import { runnerIdentity } from '../../../../runner/runner-identity';"],
    ['core imports the runner', 'server/core/jobs/enqueue.ts', "import { taskList } from '../../../runner/tasks';"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /imports nothing from runner\//.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a runner task calls the server function it runs', 'runner/tasks/eval-run.task.ts', "import { driveEvalRun } from '../../server/domains/eval-runs';"],
    ['a runner loop calls a domain’s sweeper', 'runner/send/sweeper-loop.ts', "import { sweepSends } from '../../server/domains/outbound';"],
    ['a domain test drives a real worker with the runner’s task', 'server/domains/eval-runs/drive.int.test.ts', "import { evalRunTask } from '../../../runner/tasks/eval-run.task';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('routers lane: the runner and the Prisma rule behind the faces', { timeout: 60_000 }, () => {
  it.each([
    ['a runner task imports a domain’s housekeeping file', 'runner/tasks/purge-sessions.task.ts', "import { purgeEndedSessions } from '../../server/domains/auth/housekeeping';"],
    ['runner code imports a nested domain file', 'runner/mail/watchdog.ts', "import { notify } from '../../server/domains/notifications/notify';"],
    ['runner/main.ts imports a domain’s internals', 'runner/main.ts', "import { mailTokenSource } from '../server/domains/oauth/tokens';"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /runner reaches a domain only through its public face/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a runner task uses a domain’s face', 'runner/tasks/purge-sessions.task.ts', "import { purgeEndedSessions } from '../../server/domains/auth';"],
    ['runner code uses a domain’s shapes', 'runner/templates/sync-starter.ts', "import { storedGraphInput } from '../../server/domains/workflows/schemas';"],
    ['a runner test reaches into what it tests', 'runner/templates/starter.int.test.ts', "import { starterTemplates } from '../../server/domains/templates/starter';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });

  it.each([
    ['a review use case writes through its transaction', 'server/domains/review/send.ts', "import { db } from '../../core/db';\nexport const run = () => db().$transaction((tx) => tx.outboundMessage.update({ where: { id: '' }, data: {} }));"],
    ['the llm connection rules query', 'server/domains/llm/connection-rules.ts', "import { db } from '../../core/db';\nexport const rows = () => db().llmConnection.findMany();"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /only the repo queries the database/.test(finding)), findings.join('\n')).toBe(true);
  });

  it('allows a review use case that hands its tx to the repo', async () => {
    const source = "import { db } from '../../core/db';\nimport { updateItem } from './repo';\nexport const run = () => db().$transaction((tx) => updateItem(tx, '', {}));";
    expect(await boundaryFindings('server/domains/review/send.ts', source)).toEqual([]);
  });
});

describe('routers lane: the Prisma rule on every domain file but the listed ones', { timeout: 60_000 }, () => {
  it.each([
    ['a domain file that never queried starts to', 'server/domains/members/service.ts', "import { db } from '../../core/db';\nexport const rows = () => db().member.findMany();"],
    ['a nested domain file runs raw SQL on its transaction', 'server/domains/tables/rows/service.ts', "import { db } from '../../core/db';\nexport const run = () => db().$transaction((tx) => tx.$executeRaw`SELECT 1`);"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /only the repo queries the database/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a repo queries', 'server/domains/members/repo.ts', "import { db } from '../../core/db';\nexport const rows = () => db().member.findMany();"],
    ['a housekeeping file purges', 'server/domains/members/housekeeping.ts', "import { db } from '../../core/db';\nexport const purge = () => db().invitation.deleteMany({});"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('repob lane: the Prisma rule on the 27 files that left stillQuerying', { timeout: 60_000 }, () => {
  it.each([
    ['a workflow use case queries its versions again', 'server/domains/workflows/lifecycle.ts', "import { db } from '../../core/db';\nexport const rows = () => db().workflowVersion.findMany();"],
    ['the send pipeline runs raw SQL on its transaction', 'server/domains/outbound/send/pipeline.ts', "import { db } from '../../core/db';\nexport const run = () => db().$transaction((tx) => tx.$queryRaw`SELECT 1`);"],
    ['the member endpoints read the credential table', 'server/domains/llm/member-endpoints.ts', "import { db } from '../../core/db';\nexport const rows = () => db().credential.findMany();"],
    ['a nested table file writes a table row', 'server/domains/tables/csv/import-writer.ts', "import type { Tx } from '../../../core/db';\nexport const run = (tx: Tx) => tx.dataTable.update({ where: { id: '' }, data: {} });"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /only the repo queries the database/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a nested repo-<part>.ts runs raw SQL', 'server/domains/tables/rows/repo-bulk.ts', "import type { Tx } from '../../../core/db';\nexport const run = (tx: Tx) => tx.$executeRaw`SELECT 1`;"],
    ['a nested repo.ts claims on its transaction', 'server/domains/outbound/send/repo.ts', "import type { Tx } from '../../../core/db';\nexport const run = (tx: Tx) => tx.outboundMessage.findUnique({ where: { id: '' } });"],
    ['the send pipeline hands its tx to its repo', 'server/domains/outbound/send/pipeline.ts', "import { db } from '../../../core/db';\nimport { failPurgedPending } from './repo';\nexport const run = () => db().$transaction((tx) => failPurgedPending(tx, ''));"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('repoa lane: the Prisma rule on the files that left the list', { timeout: 60_000 }, () => {
  it.each([
    ['a decision locks its row with raw SQL on the transaction', 'server/domains/approvals/decide.ts', "import type { Tx } from '../../core/db';\nexport const lock = (tx: Tx) => tx.$queryRaw`SELECT id FROM approvals FOR UPDATE`;"],
    ['an engine face queries', 'server/domains/approvals/engine-api.ts', "import { db } from '../../core/db';\nexport const row = () => db().approval.findFirst();"],
    ['a dashboard figure sends its statement itself', 'server/domains/dashboard/executions.ts', "import { db } from '../../core/db';\nexport const rows = (text: string) => db().$queryRawUnsafe(text);"],
    ['a rollup reconciler sends its statement itself', 'server/domains/dashboard/rollups/runs.ts', "import type { Tx } from '../../../core/db';\nexport const fix = (tx: Tx) => tx.$queryRawUnsafe('SELECT 1');"],
    ['the assistant’s turn writes its message', 'server/domains/assistant/turn.ts', "import { db } from '../../core/db';\nexport const write = () => db().assistantMessage.updateMany({ where: {}, data: {} });"],
    ['the evaluation driver claims a case', 'server/domains/eval-runs/drive.ts', "import { db } from '../../core/db';\nexport const run = () => db().$transaction((tx) => tx.evalCase.updateMany({ where: {}, data: {} }));"],
    ['the API keys’ service counts keys', 'server/domains/api-keys/service.ts', "import { db } from '../../core/db';\nexport const live = () => db().apiKey.count();"],
  ])('reports %s', async (_name, file, source) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => /only the repo queries the database/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['a repo-<part>.ts sends the rollups’ statements', 'server/domains/dashboard/repo-rollups.ts', "import type { Tx } from '../../core/db';\nexport const fix = (tx: Tx) => tx.$queryRawUnsafe('SELECT 1');"],
    ['a nested repo-<part>.ts runs the analyzer’s statistics', 'server/domains/analyzer/run/repo-statistics.ts', "import type { Tx } from '../../../core/db';\nexport const count = (tx: Tx) => tx.$queryRaw`SELECT 1`;"],
    ['the evaluation driver hands its tx to its repo', 'server/domains/eval-runs/drive.ts', "import { db } from '../../core/db';\nimport { claimPendingCase } from './repo-drive';\nexport const run = (id: string) => db().$transaction((tx) => claimPendingCase(tx, id));"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });

  it('reports another domain reaching into api-keys (it has no face: nothing of it is public)', async () => {
    const findings = await boundaryFindings('server/domains/members/service.ts', "import { listOwnKeys } from '../api-keys/service';");
    expect(findings.some((finding) => /only through its public face/.test(finding)), findings.join('\n')).toBe(true);
  });

  it('allows the api-keys router to use its own service', async () => {
    expect(await boundaryFindings('server/domains/api-keys/router.ts', "import { listOwnKeys } from './service';")).toEqual([]);
  });
});

describe('contacts lane: the address book is born under the existing rules, with no exemption', { timeout: 60_000 }, () => {
  it('reports another domain reaching inside contacts (its resolution, not the face)', async () => {
    const findings = await boundaryFindings('server/domains/compose/service.ts', "import { resolveContact } from '../contacts/resolution';");
    expect(findings.some((finding) => /only through its public face/.test(finding)), findings.join('\n')).toBe(true);
  });

  it('reports a contacts use case that queries instead of its repo', async () => {
    const findings = await boundaryFindings('server/domains/contacts/list.ts', "import { db } from '../../core/db';\nexport const rows = () => db().contactEntry.findMany();");
    expect(findings.some((finding) => /only the repo queries the database/.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['another domain uses the contacts face', 'server/domains/compose/service.ts', "import { resolveContact } from '../contacts';"],
    ['a repo-<part> file of contacts runs raw SQL', 'server/domains/contacts/repo-list.ts', "import { db } from '../../core/db';\nexport const rows = () => db().$queryRaw`SELECT 1`;"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

describe('cflow lane: the product reaches the address book through its faces and the composition (no new rule)', { timeout: 60_000 }, () => {
  it.each([
    ['the mail dispatcher (the engine) imports the contacts domain', 'server/engine/dispatch/dispatch-mail.ts', "import { resolveContact } from '../../domains/contacts';", /imports no domain/],
    ['the contacts.lookup node imports the contacts domain', 'server/engine/nodes/contacts/lookup.node.ts', "import { resolveContact } from '../../../domains/contacts/engine-api';", /imports no domain/],
    ['the contacts adapter reaches inside the contacts domain', 'server/engine-adapters/contacts.ts', "import { resolveContact } from '../domains/contacts/resolution';", /through its faces only/],
    ['compose reaches the mail mirror’s correspondents past the mail face', 'server/domains/compose/recipients.ts', "import { findFrequentCorrespondents } from '../mail/correspondents/repo';", /only through its public face/],
  ])('reports %s', async (_name, file, source, expected) => {
    const findings = await boundaryFindings(file, source);
    expect(findings.some((finding) => expected.test(finding)), findings.join('\n')).toBe(true);
  });

  it.each([
    ['the dispatcher reads the sender’s card through the composition', 'server/engine/dispatch/dispatch-mail.ts', "import { engineComposition } from '../composition';"],
    ['the contacts adapter uses the contacts engine-api', 'server/engine-adapters/contacts.ts', "import { resolveContact } from '../domains/contacts/engine-api';"],
    ['compose and review use the contacts and mail faces', 'server/domains/compose/recipients.ts', "import { resolveContacts } from '../contacts';\nimport { findFrequentCorrespondents } from '../mail';"],
  ])('allows %s', async (_name, file, source) => {
    expect(await boundaryFindings(file, source)).toEqual([]);
  });
});

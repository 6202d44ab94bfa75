/**
 * Journey of the visual builder's editing features, as a member uses them on a workflow made over REST
 * (webhook → set fields): duplicate, undo and redo, delete, disable, a sticky note, copy and paste into
 * another workflow, tidy up, the shortcuts help, the same workflow open in two tabs (conflict resolved
 * by loading the other tab's save), and a published version restored over an edited draft. Every edit
 * is checked where it matters: on the canvas and in the draft the API serves.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { draftOf, expectSaved, inspect, node, type StoredGraph } from '../fixtures/builder';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { publish } from '../fixtures/workflows';

const viewport = { width: 1680, height: 1000 };
test.use({ viewport });

const webhook = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } };
const tidyFields = { id: 'tidy', type: 'data.set', version: 1, name: 'Tidy fields', params: { fields: [{ name: 'ok', value: true }] }, position: { x: 400, y: 240 } };

async function createWorkflow(request: APIRequestContext, name: string, graph: unknown): Promise<string> {
  const created = await request.post('/api/v1/workflows', { data: { name, graph } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { workflow: { id: string } }).workflow.id;
}

async function openBuilder(page: Page, id: string) {
  await page.goto(`/workflows/${id}`);
  await expect(page.getByTestId('builder-canvas')).toBeVisible();
  await expectSaved(page);
}

/** The draft's node ids, as the API serves them. */
async function nodeIds(request: APIRequestContext, id: string): Promise<string[]> {
  return (await draftOf(request, id)).graph.nodes.map((item) => item.id).sort();
}

function overlaps(a: { x: number; y: number }, b: { x: number; y: number }, box = { width: 208, height: 72 }): boolean {
  return Math.abs(a.x - b.x) < box.width && Math.abs(a.y - b.y) < box.height;
}

test('a member edits a workflow on the canvas: duplicate, undo, disable, notes, copy and paste, tidy, two tabs, restore', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `editing-${stamp}@e2e.test`, name: 'Eddie Editor', password: 'editing-password-42' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const api = context.request;
  const member = await context.newPage();
  await member.setViewportSize(viewport);
  const workflowId = await createWorkflow(api, `Editing ${stamp}`, { nodes: [webhook, tidyFields], connections: [{ from: 'start', output: 'main', to: 'tidy' }] });
  const otherId = await createWorkflow(api, `Pasted into ${stamp}`, { nodes: [webhook], connections: [] });
  const nodes = member.getByTestId('builder-node');

  await test.step('a node is duplicated, the copy undone and redone, then deleted', async () => {
    await openBuilder(member, workflowId);
    await expect(nodes).toHaveCount(2);
    await node(member, 'tidy').click();
    await member.keyboard.press('ControlOrMeta+D');
    await expect(nodes).toHaveCount(3);
    await expect(node(member, 'set')).toContainText('Tidy fields 2');
    await expect(member.locator('[data-testid="inspector-node"][data-node-id="set"]')).toBeVisible();
    await expect.poll(() => nodeIds(api, workflowId)).toEqual(['set', 'start', 'tidy']);
    await expectSaved(member);

    await member.getByTestId('builder-undo').click();
    await expect(nodes).toHaveCount(2);
    await expect.poll(() => nodeIds(api, workflowId)).toEqual(['start', 'tidy']);
    await member.keyboard.press('ControlOrMeta+Shift+Z');
    await expect(nodes).toHaveCount(3);
    await expect.poll(() => nodeIds(api, workflowId)).toEqual(['set', 'start', 'tidy']);
    await expectSaved(member);

    await inspect(member, 'set');
    await member.keyboard.press('Delete');
    await expect(nodes).toHaveCount(2);
    await expect(node(member, 'set')).toHaveCount(0);
    await expect.poll(() => nodeIds(api, workflowId)).toEqual(['start', 'tidy']);
    await expectSaved(member);
  });

  await test.step('D disables the selected node and enables it again', async () => {
    await node(member, 'tidy').click();
    await member.keyboard.press('d');
    await expect(node(member, 'tidy')).toContainText('Disabled');
    await expect(node(member, 'tidy')).toHaveClass(/border-dashed/);
    await expect.poll(async () => (await draftOf(api, workflowId)).graph.nodes.find((item) => item.id === 'tidy')?.disabled).toBe(true);
    await member.keyboard.press('d');
    await expect(node(member, 'tidy')).not.toContainText('Disabled');
    await expect(node(member, 'tidy')).not.toHaveClass(/border-dashed/);
    await expect.poll(async () => (await draftOf(api, workflowId)).graph.nodes.find((item) => item.id === 'tidy')?.disabled).toBe(false);
    await expectSaved(member);
  });

  await test.step('a sticky note is added, written and coloured, and saved with the draft', async () => {
    await member.keyboard.press('n');
    const note = member.getByTestId('builder-note');
    await expect(note).toHaveCount(1);
    // The new note is selected: its text and colour are in the inspector.
    const inspector = member.getByTestId('inspector-note');
    await inspector.getByRole('textbox').fill('Ask Ada before changing the fields');
    await inspector.getByTestId('note-colour-ciel').click();
    await expect(note).toHaveAttribute('data-color', 'ciel');
    await expect(note).toContainText('Ask Ada before changing the fields');
    await expect
      .poll(async () => (await draftOf(api, workflowId)).graph.notes?.map(({ text, color }) => ({ text, color })))
      .toEqual([{ text: 'Ask Ada before changing the fields', color: 'ciel' }]);
    await expectSaved(member);
  });

  await test.step('a node copied here is pasted into another workflow with its parameters', async () => {
    await node(member, 'tidy').click();
    await member.keyboard.press('ControlOrMeta+C');
    const copied = await member.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toMatchObject({ mailflow: 'nodes', nodes: [{ id: 'tidy', type: 'data.set' }] });

    await openBuilder(member, otherId);
    await expect(nodes).toHaveCount(1);
    // A click on the empty canvas, then the paste shortcut.
    await member.getByTestId('builder-canvas').click({ position: { x: 40, y: 40 } });
    await member.keyboard.press('ControlOrMeta+V');
    await expect(nodes).toHaveCount(2);
    await expect(node(member, 'tidy')).toContainText('Tidy fields');
    await expect
      .poll(async () => (await draftOf(api, otherId)).graph.nodes.find((item) => item.id === 'tidy')?.params)
      .toEqual({ fields: [{ name: 'ok', value: true }] });
    await expectSaved(member);
    const pasted = await inspect(member, 'tidy');
    await expect(pasted.getByRole('textbox', { name: 'Name' }).first()).toHaveText('ok');
  });

  await test.step('tidy up lays the nodes out left to right without overlaps', async () => {
    await openBuilder(member, workflowId);
    const before = (await draftOf(api, workflowId)).graph;
    await member.getByTestId('builder-tidy').click();
    let after: StoredGraph = before;
    await expect
      .poll(async () => {
        after = (await draftOf(api, workflowId)).graph;
        return JSON.stringify(after.nodes.map((item) => item.position));
      })
      .not.toBe(JSON.stringify(before.nodes.map((item) => item.position)));
    await expectSaved(member);
    const position = (id: string) => after.nodes.find((item) => item.id === id)!.position;
    expect(position('tidy').x).toBeGreaterThan(position('start').x);
    expect(overlaps(position('start'), position('tidy'))).toBe(false);
  });

  await test.step('? lists the shortcuts', async () => {
    await member.keyboard.press('?');
    const list = member.getByTestId('shortcuts-list');
    await expect(list).toBeVisible();
    await expect(list).toContainText('Undo');
    await expect(list).toContainText('Ctrl+D');
    await expect(list).toContainText('Shift+L');
    await member.keyboard.press('Escape');
    await expect(list).toBeHidden();
  });

  await test.step('in two tabs, each says so; an edit over the other tab’s save conflicts and loads the latest', async () => {
    const second = await context.newPage();
    await second.setViewportSize(viewport);
    await openBuilder(second, workflowId);
    await expect(second.getByTestId('builder-other-tab')).toBeVisible();
    await expect(member.getByTestId('builder-other-tab')).toBeVisible();

    await node(second, 'tidy').click();
    await second.keyboard.press('d');
    await expect(node(second, 'tidy')).toContainText('Disabled');
    await expect.poll(async () => (await draftOf(api, workflowId)).graph.nodes.find((item) => item.id === 'tidy')?.disabled).toBe(true);
    await expectSaved(second);

    await node(member, 'start').click();
    await member.keyboard.press('d');
    await expect(node(member, 'start')).toContainText('Disabled');
    await expect(member.getByTestId('builder-conflict')).toBeVisible();
    await member.getByTestId('builder-load-latest').click();
    await expect(member.getByTestId('builder-conflict')).toBeHidden();
    await expect(node(member, 'tidy')).toContainText('Disabled');
    await expect(node(member, 'start')).not.toContainText('Disabled');
    await expectSaved(member);
    const draft = (await draftOf(api, workflowId)).graph;
    expect(draft.nodes.find((item) => item.id === 'start')?.disabled).not.toBe(true);
    expect(draft.nodes.find((item) => item.id === 'tidy')?.disabled).toBe(true);

    await second.close();
    await expect(member.getByTestId('builder-other-tab')).toBeHidden();
  });

  await test.step('a published version restored over a renamed node brings the old name back', async () => {
    await publish(member, 'Before the rename');
    const settings = (await inspect(member, 'tidy')).getByTestId('node-settings-form');
    await settings.getByLabel('Name').fill('Tidy renamed');
    await expect(node(member, 'tidy')).toContainText('Tidy renamed');
    await expect.poll(async () => (await draftOf(api, workflowId)).graph.nodes.find((item) => item.id === 'tidy')?.name).toBe('Tidy renamed');
    await expectSaved(member);

    await member.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = member.getByRole('dialog', { name: 'Publish the draft' });
    await expect(dialog.getByTestId('diff-node-changed')).toHaveCount(1);
    await expect(dialog.getByTestId('diff-node-changed')).toContainText('Tidy renamed');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(member.getByTestId('workflow-version')).toHaveText('v1');

    await member.getByRole('tab', { name: 'Versions' }).click();
    await expect(member.getByTestId('version-row')).toHaveCount(1);
    await member.getByTestId('version-restore').click();
    const confirm = member.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(member.getByTestId('version-restored')).toBeVisible();

    await member.getByRole('tab', { name: 'Editor' }).click();
    await expect(node(member, 'tidy')).toContainText('Tidy fields');
    await expect(node(member, 'tidy')).not.toContainText('Tidy renamed');
    await expectSaved(member);
    expect((await draftOf(api, workflowId)).graph.nodes.find((item) => item.id === 'tidy')?.name).toBe('Tidy fields');
  });

  await test.step('an edit made just before publishing is in the published version', async () => {
    const settings = (await inspect(member, 'tidy')).getByTestId('node-settings-form');
    await settings.getByLabel('Name').fill('Tidy at once');
    // No wait for the autosave: publishing saves the editor's pending edit first.
    await publish(member, 'Right after the rename');
    await expect(member.getByTestId('workflow-version')).toHaveText('v2');
    const versions = (await (await api.get(`/api/v1/workflows/${workflowId}/versions`)).json()) as { versions: { id: string; number: number }[] };
    const latest = versions.versions.find((version) => version.number === 2)!;
    const detail = (await (await api.get(`/api/v1/workflows/${workflowId}/versions/${latest.id}`)).json()) as { version: { graph: { nodes: { id: string; name: string }[] } } };
    expect(detail.version.graph.nodes.find((item) => item.id === 'tidy')?.name).toBe('Tidy at once');
  });
  await context.close();
});

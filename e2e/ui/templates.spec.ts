/**
 * Journey of the Templates gallery: an administrator publishes two templates over REST (one
 * disabled); a member finds the enabled one by category and search, previews its graph, installs it
 * under a name of their own and lands on the new draft in the builder, where a test run succeeds; the install count shows; a search
 * with no match shows the filtered empty state. The administrator sees the disabled template marked
 * and enables it, edits a template of theirs (name, description, category) and deletes it; a starter
 * template refuses deletion (read-only).
 */
import { expect, test } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

const graph = {
  nodes: [
    { id: 'start', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } },
    { id: 'tidy', type: 'data.set', version: 1, name: 'Tidy up', params: { fields: [{ name: 'ok', value: true }] }, position: { x: 260, y: 0 } },
  ],
  connections: [{ from: 'start', to: 'tidy' }],
};

test('a member finds, previews and installs a template; an administrator enables a disabled one, edits and deletes their own', async ({ page, browser }) => {
  // Four steps, two members and a run: past the default 60 s on a loaded two-core machine.
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const shown = `E2E digest ${stamp}`;
  const hidden = `E2E hidden ${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  for (const [name, enabled] of [
    [shown, true],
    [hidden, false],
  ] as const) {
    const created = await page.request.post('/api/v1/admin/templates', { data: { name, description: `Summarises the day ${stamp}`, category: 'digests', enabled, graph } });
    expect(created.status()).toBe(201);
  }

  const memberContext = await signedInMember(browser, page.request, { email: `templates-member-${stamp}@e2e.test`, name: 'Tina Member', password: 'member-password-42' });
  const member = await memberContext.newPage();

  await test.step('the member opens the gallery and narrows it by category and search', async () => {
    await member.goto('/');
    await member.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Templates', exact: true }).click();
    await expect(member).toHaveURL(/\/templates$/);
    await expect(member.getByRole('heading', { name: 'Templates', exact: true })).toBeVisible();
    await member.getByRole('group', { name: 'Filter by category' }).getByRole('button', { name: 'Digests' }).click();
    await member.getByRole('searchbox', { name: 'Search templates' }).fill(stamp);
    const cards = member.getByTestId('template-card');
    await expect(cards).toHaveCount(1);
    await expect(cards).toContainText(shown);
    // Its steps in words, never the node type ids.
    await expect(cards).toContainText('Inbound webhook');
    await expect(cards).toContainText('Set fields');
    await expect(cards).not.toContainText('trigger.webhook@1');
    await expect(member.getByText(hidden)).toHaveCount(0);
  });

  await test.step('the preview draws the graph read-only', async () => {
    await member.getByRole('button', { name: `Preview ${shown}` }).click();
    const dialog = member.getByRole('dialog', { name: shown });
    await expect(dialog.getByTestId('graph-canvas')).toBeVisible();
    await expect(dialog.getByTestId('canvas-node')).toHaveCount(2);
    await expect(dialog.getByTestId('canvas-node').first()).toContainText('Incoming call');
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
  });

  await test.step('installing under a name opens the new draft workflow', async () => {
    const dialog = member.getByRole('dialog', { name: `Install “${shown}”` });
    await dialog.getByLabel('Workflow name').fill(`My digest ${stamp}`);
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(member.getByRole('heading', { name: `My digest ${stamp}`, exact: true })).toBeVisible();
    await expect(member.getByTestId('workflow-status')).toHaveText('Draft');
  });

  await test.step('the installed draft opens in the builder and runs', async () => {
    await expect(member.getByTestId('builder-node')).toHaveCount(2);
    await member.getByTestId('test-run-start').click();
    await expect(member.getByTestId('test-run-result')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
    await member.locator('[data-testid="builder-node"][data-node-id="tidy"]').click();
    await expect(member.getByTestId('node-result-data')).toContainText('"ok": true');
  });

  await test.step('the gallery shows the install, and an empty state for a search without match', async () => {
    await member.goto('/templates');
    await member.getByRole('searchbox', { name: 'Search templates' }).fill(stamp);
    await expect(member.getByTestId('template-card').getByTestId('template-installs')).toHaveText('Installed once');
    await member.getByRole('searchbox', { name: 'Search templates' }).fill(`nothing-like-this-${stamp}`);
    await expect(member.getByTestId('list-empty')).toContainText('No matching template');
    await member.getByRole('button', { name: 'Clear filters' }).click();
    await expect(member.getByTestId('template-card').first()).toBeVisible();
  });
  await memberContext.close();

  await test.step('the administrator sees the disabled template marked and enables it', async () => {
    await page.goto('/templates');
    await page.getByRole('searchbox', { name: 'Search templates' }).fill(hidden);
    const card = page.getByTestId('template-card');
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAttribute('data-enabled', 'false');
    await expect(card).toContainText('Disabled');
    await card.getByRole('button', { name: `Enable ${hidden}` }).click();
    await expect(card).toHaveAttribute('data-enabled', 'true');
    await expect(card.getByRole('button', { name: `Disable ${hidden}` })).toBeVisible();
  });

  await test.step('the administrator edits a template of theirs, then deletes it', async () => {
    const own = `E2E own ${stamp}`;
    const created = await page.request.post('/api/v1/admin/templates', { data: { name: own, description: 'Before the edit', category: 'other', graph } });
    expect(created.status()).toBe(201);
    await page.goto('/templates');
    const search = page.getByRole('searchbox', { name: 'Search templates' });
    await search.fill(own);
    const card = page.getByTestId('template-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Other');

    await card.getByRole('button', { name: `Manage ${own}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit “${own}”` });
    await edit.getByLabel('Name').fill(`${own} renamed`);
    await edit.getByLabel('Description').fill(`Edited description ${stamp}`);
    await edit.getByLabel('Category').selectOption({ label: 'Digests' });
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(edit).toBeHidden();
    await expect(card).toContainText(`${own} renamed`);
    await expect(card).toContainText(`Edited description ${stamp}`);
    await expect(card).toContainText('Digests');

    await card.getByRole('button', { name: `Manage ${own} renamed` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete “${own} renamed”?` });
    await confirm.getByRole('button', { name: 'Delete template' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('template-card')).toHaveCount(0);
    await expect(page.getByTestId('list-empty')).toContainText('No matching template');
  });

  await test.step('a starter template cannot be deleted: the read-only answer is shown', async () => {
    const starter = 'Label and archive newsletters';
    await page.getByRole('searchbox', { name: 'Search templates' }).fill(starter);
    const card = page.getByTestId('template-card');
    await expect(card).toHaveCount(1);
    await card.getByRole('button', { name: `Manage ${starter}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete “${starter}”?` });
    await confirm.getByRole('button', { name: 'Delete template' }).click();
    await expect(confirm.getByTestId('template-delete-error')).toHaveText('A starter template cannot be changed or deleted; disable it instead.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(card).toHaveCount(1);
  });
});

/**
 * Journey: an administrator creates a table with a key column, imports a CSV file whose bad line is
 * reported (nothing written) and then only its valid lines, filters and sorts the rows (the REST API
 * answers the same rows for the same query), edits a cell with an invalid email and sees why it is
 * refused, fixes it, cancels another; then a member sees the resulting rows.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

const csv = [
  'Email,Name,Status,Amount',
  'ada@example.com,Ada Lovelace,Open,1200.5',
  'grace@example.com,Grace Hopper,Closed,4500',
  'not-an-email,Broken Line,Open,10',
  'alan@example.com,Alan Turing,Waiting,300',
  'katherine@example.com,Katherine Johnson,Open,800',
].join('\n');

const rowsOf = (page: Page) => page.getByTestId('table-row');
const rowOf = (page: Page, name: string) => rowsOf(page).filter({ hasText: name });

test('create a table, import a CSV, filter, sort and edit; a member sees the rows', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // Unique per run, so the journey can run again against the same instance.
  const stamp = Date.now().toString(36);
  const tableName = `Customers ${stamp}`;
  const slug = `customers-${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);

  await test.step('the administrator creates the table with Email as its key', async () => {
    await page.getByRole('link', { name: 'Tables' }).click();
    await expect(page.getByRole('heading', { name: 'Tables', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'New table' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New table' });
    await dialog.getByLabel('Name', { exact: true }).fill(tableName);
    await dialog.getByLabel('Description').first().fill('Customers synced from the CRM');
    const columns = [
      { label: 'Email', type: 'Email', key: true, required: true },
      { label: 'Name', type: 'Text' },
      { label: 'Status', type: 'Choice', options: 'Open\nWaiting\nClosed' },
      { label: 'Amount', type: 'Number' },
    ];
    for (const [index, column] of columns.entries()) {
      if (index > 0) await dialog.getByRole('button', { name: 'Add column' }).click();
      const editor = dialog.getByTestId('column-editor').nth(index);
      await editor.getByLabel('Label').fill(column.label);
      await editor.getByLabel('Type').selectOption({ label: column.type });
      if (column.required) await editor.getByLabel('Required').check();
      if (column.key) await editor.getByLabel('Key column').check();
      if (column.options) await editor.getByLabel('Options').fill(column.options);
    }
    await dialog.getByRole('button', { name: 'Create table' }).click();

    await expect(page).toHaveURL(new RegExp(`/tables/${slug}$`));
    await expect(page.getByRole('heading', { name: tableName, exact: true })).toBeVisible();
    await expect(page.getByTestId('table-meta')).toHaveText(`${slug} · 4 columns · 0 rows · Email`);
    await expect(page.getByText('No rows yet')).toBeVisible();
  });

  await test.step('a CSV with a bad line is refused with the line and its reason, nothing imported', async () => {
    await page.getByRole('button', { name: 'Import CSV' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import a CSV file' });
    await dialog.getByTestId('import-file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(dialog.getByTestId('import-preview')).toBeVisible();
    await expect(dialog.getByText('customers.csv · 5 lines')).toBeVisible();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const result = dialog.getByTestId('import-result');
    await expect(result).toContainText('1 line cannot be imported');
    await expect(result).toContainText('Nothing was imported.');
    await expect(dialog.getByTestId('import-rejected-line')).toHaveText([/^Line 4\s*Email: Not a valid email address\.$/]);
    const stored = await page.request.get(`/api/v1/tables/${slug}/rows`);
    expect(stored.status()).toBe(200);
    expect((await stored.json()).total).toBe(0);

    await dialog.getByRole('button', { name: 'Import the 4 valid lines' }).click();
    await expect(result).toContainText('Import complete');
    await expect(result).toContainText('4 rows added · 1 line skipped');
    await expect(dialog.getByTestId('import-rejected-line')).toHaveText([/^Line 4\s*Email: Not a valid email address\.$/]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    await expect(page.getByTestId('table-range')).toHaveText('1–4 of 4');
    await expect(page.getByTestId('table-meta')).toContainText('4 rows');
    await expect(page.getByTestId('cell-name')).toHaveText(['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson']);
    await expect(rowOf(page, 'Grace Hopper').getByTestId('cell-amount')).toHaveText('4,500');
  });

  await test.step('filter on Amount ≥ 800 and sort by Amount descending', async () => {
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const builder = page.getByRole('dialog', { name: 'Filter rows' });
    await builder.getByLabel('Column (Condition 1)').selectOption({ label: 'Amount' });
    await builder.getByLabel('Operator (Condition 1)').selectOption({ label: 'is at least' });
    await builder.getByLabel('Value (Condition 1)').fill('800');
    await builder.getByRole('button', { name: 'Apply' }).click();
    await expect(builder).toBeHidden();

    await expect(page.getByTestId('filter-chip')).toHaveText(['Amount is at least 800']);
    await expect(page.getByTestId('table-range')).toHaveText('1–3 of 3 (4 total)');
    await expect(page.getByTestId('cell-name')).toHaveText(['Ada Lovelace', 'Grace Hopper', 'Katherine Johnson']);

    await page.getByRole('button', { name: 'Options for column Amount' }).click();
    await page.getByRole('menuitem', { name: 'Sort descending' }).click();
    await expect(page.getByRole('columnheader', { name: 'Options for column Amount' })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByTestId('cell-name')).toHaveText(['Grace Hopper', 'Ada Lovelace', 'Katherine Johnson']);
    await expect(page.getByTestId('cell-amount')).toHaveText(['4,500', '1,200.5', '800']);
    await expect(page.getByTestId('table-range')).toHaveText('1–3 of 3 (4 total)');
  });

  await test.step('the REST API answers the same rows for the same sort and filter', async () => {
    const filter = JSON.stringify([{ column: 'amount', op: 'gte', value: 800 }]);
    const answer = await page.request.get(`/api/v1/tables/${slug}/rows`, { params: { sort: 'amount', dir: 'desc', filter } });
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as { rows: { cells: Record<string, unknown> }[]; total: number; totalUnfiltered: number };
    expect(body.total).toBe(3);
    expect(body.totalUnfiltered).toBe(4);
    const shown = await page.getByTestId('cell-name').allTextContents();
    expect(body.rows.map((row) => row.cells.name)).toEqual(shown);
    expect(body.rows.map((row) => row.cells.amount)).toEqual([4500, 1200.5, 800]);
  });

  await test.step('Export CSV downloads the rows of the view: filtered and sorted as shown', async () => {
    const href = await page.getByTestId('export-csv').getAttribute('href');
    expect(href).toContain('sort=amount');
    const download = await page.request.get(href!);
    expect(download.status()).toBe(200);
    expect(await download.text()).toBe(
      'Email,Name,Status,Amount\ngrace@example.com,Grace Hopper,Closed,4500\nada@example.com,Ada Lovelace,Open,1200.5\nkatherine@example.com,Katherine Johnson,Open,800\n',
    );
  });

  await test.step('a second condition: Status is one of Open, Waiting', async () => {
    await page.getByRole('button', { name: 'Filter, 1 condition applied' }).click();
    const builder = page.getByRole('dialog', { name: 'Filter rows' });
    await expect(builder.getByLabel('Value (Condition 1)')).toHaveValue('800');
    await builder.getByRole('button', { name: 'Add condition' }).click();
    await builder.getByLabel('Column (Condition 2)').selectOption({ label: 'Status' });
    await builder.getByLabel('Operator (Condition 2)').selectOption({ label: 'is one of' });
    await builder.getByLabel('Open', { exact: true }).check();
    await builder.getByLabel('Waiting', { exact: true }).check();
    await builder.getByRole('button', { name: 'Apply' }).click();
    await expect(builder).toBeHidden();

    await expect(page.getByTestId('filter-chip')).toHaveText(['Amount is at least 800', 'Status is one of Open, Waiting']);
    await expect(page.getByTestId('table-range')).toHaveText('1–2 of 2 (4 total)');
    await expect(page.getByTestId('cell-name')).toHaveText(['Ada Lovelace', 'Katherine Johnson']);
  });

  await test.step('an invalid email is refused on the cell; fixing it saves, Escape cancels', async () => {
    const katherine = rowOf(page, 'Katherine Johnson');
    await katherine.getByTestId('cell-email').dblclick();
    const editor = page.getByTestId('cell-editor');
    await editor.fill('katherine-at-example');
    await editor.press('Enter');
    await expect(katherine.getByTestId('cell-error')).toHaveText('Not a valid email address.');
    await expect(katherine.getByTestId('cell-error')).toBeVisible();
    await expect(editor).toHaveValue('katherine-at-example');

    await editor.fill('katherine.johnson@example.com');
    await editor.press('Enter');
    await expect(katherine.getByTestId('cell-email')).toHaveText('katherine.johnson@example.com');
    await expect(page.getByTestId('cell-error')).toHaveCount(0);

    const ada = rowOf(page, 'Ada Lovelace');
    await ada.getByTestId('cell-email').dblclick();
    await editor.fill('ada-at-example');
    await editor.press('Enter');
    await expect(ada.getByTestId('cell-error')).toHaveText('Not a valid email address.');
    await editor.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(page.getByTestId('cell-error')).toHaveCount(0);
    await expect(ada.getByTestId('cell-email')).toHaveText('ada@example.com');
    await expect(page.getByTestId('cell-name')).toHaveText(['Ada Lovelace', 'Katherine Johnson']);
  });

  await test.step('a member sees the rows, with the edited email', async () => {
    const memberContext = await signedInMember(browser, page.request, {
      email: `tables-member-${Date.now()}@e2e.test`,
      name: 'Tabitha Member',
      password: 'member-password-42',
    });
    const member = await memberContext.newPage();
    await member.goto('/tables');
    const listed = member.getByTestId('tables-row').filter({ hasText: tableName });
    await expect(listed).toContainText(slug);
    await expect(member.getByRole('button', { name: 'New table' })).toHaveCount(0);
    await listed.getByRole('link', { name: tableName }).click();

    await expect(member).toHaveURL(new RegExp(`/tables/${slug}$`));
    await expect(member.getByRole('heading', { name: tableName, exact: true })).toBeVisible();
    await expect(member.getByTestId('table-range')).toHaveText('1–4 of 4');
    await expect(member.getByTestId('cell-email')).toHaveText([
      'ada@example.com',
      'grace@example.com',
      'alan@example.com',
      'katherine.johnson@example.com',
    ]);
    await expect(member.getByTestId('cell-name')).toHaveText(['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson']);
    await expect(member.getByTestId('cell-status')).toHaveText(['Open', 'Closed', 'Waiting', 'Open']);
    await expect(member.getByRole('button', { name: 'Structure' })).toHaveCount(0);

    // The order menu: newest first, then back; dragging a header's edge widens the column, remembered.
    await member.getByTestId('order-menu').click();
    await member.getByRole('menuitemradio', { name: 'Newest first' }).click();
    await expect(member.getByTestId('cell-name')).toHaveText(['Katherine Johnson', 'Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    await expect(member.getByTestId('order-menu')).toHaveText('Newest first');

    const header = member.getByRole('columnheader', { name: 'Options for column Name' });
    const before = (await header.boundingBox())!.width;
    const handle = (await member.getByTestId('column-resize-name').boundingBox())!;
    await member.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await member.mouse.down();
    await member.mouse.move(handle.x + handle.width / 2 + 120, handle.y + handle.height / 2, { steps: 5 });
    await member.mouse.up();
    await expect.poll(async () => Math.round((await header.boundingBox())!.width)).toBe(Math.round(before + 120));
    await member.reload();
    await expect(member.getByTestId('cell-name').first()).toHaveText('Katherine Johnson');
    await expect.poll(async () => Math.round((await header.boundingBox())!.width)).toBe(Math.round(before + 120));
    await memberContext.close();
  });
});

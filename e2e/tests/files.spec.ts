// Over 300 lines: four browser journeys through "Dateien" (admin, /files/new, Vertreter, phone); the admin
// journey alone is 200 lines, and all share the tree, grid, drop-zone and option helpers.
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiToken, expectNoAxeViolations, uploadViaApi, signedInPage, labelled } from './support/fixtures.ts';

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A small but well-formed PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);
/** A 1×1 PNG: browsers show it inline, so "Ansehen" opens a tab. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const tree = (page: Page) => page.getByRole('navigation', { name: 'Ordnerbaum' });
const grid = (page: Page) => page.getByRole('table', { name: /^Inhalt von/ });
const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

async function openInTree(page: Page, name: string) {
  // On its own row: an expanded treeitem also holds its children's rows.
  await tree(page)
    .getByRole('treeitem', { name, exact: true })
    .click({ position: { x: 60, y: 12 } });
  await expect(
    page.getByRole('navigation', { name: 'Aktueller Pfad' }).getByText(name, { exact: true }),
  ).toHaveAttribute('aria-current', 'location');
}

/** Opens the explorer's "⋯" menu and chooses an action in it. */
async function moreAction(page: Page, name: string) {
  await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** The entries of the open menu. */
const menuEntries = (page: Page) => page.getByRole('menu').getByRole('menuitem');

async function chooseOption(page: Page, scope: Locator, box: string, option: string) {
  await scope.getByRole('combobox', { name: labelled(box) }).click({ force: true });
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Drops a file onto the drop zone as a person dragging it from the desktop would. */
async function dropFile(page: Page, scope: Locator, name: string, mimeType: string, content: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ fileName, type, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], fileName, { type }));
      return transfer;
    },
    { fileName: name, type: mimeType, bytes: [...content] },
  );
  const zone = scope.getByTestId('file-dropzone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(scope.getByText(name, { exact: false })).toBeVisible();
}

test.describe('Dateien', () => {
  test('an admin creates, uploads, moves, renames, replaces, deletes and creates an Amtsperiode', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await signedInPage(browser, 'admin');
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const id = stamp();
    const project = `Projekt ${id}`;
    const archive = `Archiv ${id}`;

    await test.step('the explorer at the root offers only what applies there (product.md P4)', async () => {
      await page.goto('/files');
      await expect(page.getByRole('heading', { name: 'Dateien', level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Neuer Ordner' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Datei hochladen' })).toHaveCount(0);
      await expect(page.getByText('Im Hauptordner können keine Dateien hochgeladen')).toHaveCount(0);
      await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
      await expect(menuEntries(page)).toHaveText(['Amtsperiode erstellen', 'Papierkorb']);
      await page.keyboard.press('Escape');
      await expectNoAxeViolations(page);
    });

    await test.step('the folder tree works with the arrow keys (WAI-ARIA tree view)', async () => {
      const root = tree(page).getByRole('treeitem', { name: 'Hauptordner' });
      await root.focus();
      await expect(root).toHaveAttribute('tabindex', '0');
      await page.keyboard.press('ArrowDown');
      const general = tree(page).getByRole('treeitem', { name: 'Allgemein', exact: true });
      await expect(general).toBeFocused();
      await page.keyboard.press('End');
      await expect(tree(page).getByRole('treeitem', { name: 'Mitgliedervertreter' })).toBeFocused();
      await page.keyboard.press('Home');
      await expect(root).toBeFocused();
      await page.keyboard.press('ArrowLeft');
      await expect(root).toHaveAttribute('aria-expanded', 'false');
      await page.keyboard.press('ArrowRight');
      await expect(root).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('ArrowRight');
      await expect(general).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\?folder=4$/);
      await expect(general).toHaveAttribute('aria-selected', 'true');
      await expect(tree(page).locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
    });

    await test.step('creates two folders in /Allgemein', async () => {
      await openInTree(page, 'Allgemein');
      // A protected folder: nothing to edit or delete in the menu.
      await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
      await expect(menuEntries(page)).toHaveText(['Amtsperiode erstellen', 'Papierkorb']);
      await page.keyboard.press('Escape');
      for (const name of [project, archive]) {
        await page.getByRole('button', { name: 'Neuer Ordner' }).click();
        const dialog = page.getByRole('dialog', { name: 'Ordner erstellen' });
        await expect(dialog).toContainText('Der Ordner wird im derzeit aktiven Ordner angelegt.');
        await dialog.getByRole('textbox', { name: labelled('Name') }).fill(name);
        await dialog.getByRole('button', { name: 'Ordner erstellen' }).click();
        await expect(dialog).toBeHidden();
        await expect(toast(page, 'Ordner wurde erfolgreich erstellt').first()).toBeVisible();
        await expect(grid(page).getByRole('link', { name })).toBeVisible();
      }
      // The tree reloaded as well.
      await expect(tree(page).getByRole('treeitem', { name: project })).toBeVisible();
    });

    await test.step('uploads with the file picker; the roles start as the folder’s', async () => {
      await grid(page).getByRole('link', { name: project }).click();
      await expect(page).toHaveURL(/\?folder=\d+$/);
      await page.getByRole('button', { name: 'Datei hochladen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Datei hochladen' });
      await expect(dialog).toContainText('Die Datei wird in den derzeit aktiven Ordner hochgeladen.');
      await dialog.getByRole('textbox', { name: labelled('Titel') }).fill(`Bericht ${id}`);
      // /Allgemein belongs to both committees.
      await expect(dialog.locator('.mantine-Pill-label')).toHaveText(['Aufsichtsrat', 'Vertreter']);
      const chooserPromise = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Datei auswählen' }).click();
      const chooser = await chooserPromise;
      // Several documents may be picked at once (decision 182); one stays the specified form.
      expect(chooser.isMultiple()).toBe(true);
      await chooser.setFiles({ name: 'bericht.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(dialog.getByText('bericht.pdf')).toBeVisible();
      await dialog.getByRole('button', { name: 'Hochladen' }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, 'Datei wurde erfolgreich hochgeladen').first()).toBeVisible();
      await expect(grid(page).getByRole('link', { name: `Bericht ${id}`, exact: true })).toBeVisible();
    });

    await test.step('uploads by drag and drop, with a notification limited to the chosen roles', async () => {
      await page.getByRole('button', { name: 'Datei hochladen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Datei hochladen' });
      await dialog.getByRole('textbox', { name: labelled('Titel') }).fill(`Foto ${id}`);
      await dialog
        .locator('.mantine-Pill-root')
        .filter({ hasText: 'Aufsichtsrat' })
        .locator('.mantine-Pill-remove')
        .click();
      await expect(dialog.locator('.mantine-Pill-label')).toHaveText(['Vertreter']);
      await chooseOption(page, dialog, 'Benachrichtigung an', 'Vertreter');
      await expect(page.getByRole('option', { name: 'Aufsichtsrat', exact: true })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await dropFile(page, dialog, 'foto.png', 'image/png', PNG);
      await dialog.getByRole('button', { name: 'Hochladen' }).click();
      await expect(dialog).toBeHidden();
      await expect(grid(page).getByRole('link', { name: `Foto ${id}`, exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    await test.step('each row has a ⋮ with what applies to it: a menu for a folder, the dialog for a document', async () => {
      await openInTree(page, 'Allgemein');
      await grid(page)
        .getByRole('button', { name: `Aktionen für „${project}“` })
        .click();
      await expect(menuEntries(page)).toHaveText(['Bearbeiten', 'Löschen']);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();
      await openInTree(page, project);
      const trigger = grid(page).getByRole('button', { name: `Aktionen für „Foto ${id}“` });
      await trigger.click();
      const dialog = page.getByRole('dialog', { name: 'Datei ausgewählt' });
      for (const name of ['Ansehen', 'Herunterladen', 'Bearbeiten', 'Löschen']) {
        await expect(dialog.getByRole('button', { name, exact: true })).toBeVisible();
      }
      await expect(dialog.getByRole('link', { name: 'Details anzeigen' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(trigger).toBeFocused();
    });

    await test.step('views and downloads in the browser, with the token only in a header', async () => {
      await grid(page)
        .getByRole('button', { name: `Aktionen für „Foto ${id}“` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Datei ausgewählt' });
      await expect(dialog).toContainText('Eine der folgenden Funktionen auswählen.');
      await expectNoAxeViolations(page);
      const popupPromise = page.waitForEvent('popup');
      await dialog.getByRole('button', { name: 'Ansehen' }).click();
      const popup = await popupPromise;
      expect(popup.url()).toMatch(/^blob:/);
      await popup.close();

      const downloadPromise = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Herunterladen' }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe(`Foto ${id}.png`);
      expect(readFileSync((await download.path())!).equals(PNG)).toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      expect(requested.filter((url) => token && url.includes(token))).toEqual([]);
    });

    await test.step('edits a file: new title, moved to another folder, content replaced', async () => {
      await grid(page)
        .getByRole('button', { name: `Aktionen für „Bericht ${id}“` })
        .click();
      await page
        .getByRole('dialog', { name: 'Datei ausgewählt' })
        .getByRole('button', { name: 'Bearbeiten' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Datei bearbeiten' });
      await expect(dialog).toContainText(
        'Durch das Hochladen einer neuen Datei wird die bestehende Datei überschrieben.',
      );
      await dialog.getByRole('textbox', { name: labelled('Titel') }).fill(`Bericht ${id} final`);
      await chooseOption(page, dialog, 'Verschieben nach', `/Allgemein/${archive}`);
      await dialog.locator('input[type="file"]').setInputFiles({
        name: 'bericht-v2.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.concat([PDF, Buffer.from('% zweite Fassung\n')]),
      });
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, 'Datei erfolgreich aktualisiert').first()).toBeVisible();
      await expect(grid(page).getByRole('link', { name: `Bericht ${id}`, exact: true })).toHaveCount(0);

      await openInTree(page, archive);
      await grid(page)
        .getByRole('button', { name: `Aktionen für „Bericht ${id} final“` })
        .click();
      const downloadPromise = page.waitForEvent('download');
      await page
        .getByRole('dialog', { name: 'Datei ausgewählt' })
        .getByRole('button', { name: 'Herunterladen' })
        .click();
      const download = await downloadPromise;
      expect(readFileSync((await download.path())!).toString('utf8')).toContain('zweite Fassung');
      await page.keyboard.press('Escape');
    });

    await test.step('renames and moves a folder; the path follows the returned breadcrumb', async () => {
      await openInTree(page, project);
      await moreAction(page, 'Ordner bearbeiten');
      const dialog = page.getByRole('dialog', { name: 'Ordner bearbeiten' });
      await expect(dialog).toContainText('Der derzeit aktive Ordner wird bearbeitet.');
      await expect(dialog).toContainText(`Aktiver Ordner: /Allgemein/${project}`);
      await dialog.getByRole('textbox', { name: labelled('Name') }).fill(`${project} neu`);
      await chooseOption(page, dialog, 'Verschieben nach', `/Allgemein/${archive}`);
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, 'Ordner erfolgreich aktualisiert').first()).toBeVisible();
      const path = page.getByRole('navigation', { name: 'Aktueller Pfad' });
      await expect(path).toContainText(archive);
      await expect(path).toContainText(`${project} neu`);
      await expect(grid(page).getByRole('link', { name: `Foto ${id}`, exact: true })).toBeVisible();
    });

    await test.step('creates an Amtsperiode with one folder per year', async () => {
      await openInTree(page, archive);
      await moreAction(page, 'Amtsperiode erstellen');
      const dialog = page.getByRole('dialog', { name: 'Amtsperiode erstellen' });
      await expect(dialog).toContainText(
        'Mit dem Festlegen des Starts und des Ends einer Amtsperiode werden alle benötigten Ordner erstellt',
      );
      await dialog.getByRole('textbox', { name: labelled('Start') }).fill('2026');
      await dialog.getByRole('textbox', { name: labelled('Ende') }).fill('2028');
      await dialog.getByRole('button', { name: 'Amtsperiode erstellen' }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, 'Amtsperiode wurde erfolgreich erstellt').first()).toBeVisible();
      await grid(page).getByRole('link', { name: 'Amtsperiode 2026–2028' }).click();
      for (const year of ['2026', '2027', '2028']) {
        await expect(grid(page).getByRole('link', { name: year, exact: true })).toBeVisible();
      }
    });

    await test.step('deletes a file after asking', async () => {
      await openInTree(page, `${project} neu`);
      await grid(page)
        .getByRole('button', { name: `Aktionen für „Foto ${id}“` })
        .click();
      await page
        .getByRole('dialog', { name: 'Datei ausgewählt' })
        .getByRole('button', { name: 'Löschen' })
        .click();
      const confirm = page.getByRole('dialog', { name: 'Datei löschen' });
      await confirm.getByRole('button', { name: 'Löschen' }).click();
      await expect(toast(page, 'Datei wurde in den Papierkorb verschoben').first()).toBeVisible();
      await expect(grid(page).getByText('Ordner leer')).toBeVisible();
    });

    await test.step('deletes a folder after saying what it contains; the view moves to the parent', async () => {
      await openInTree(page, archive);
      const archiveUrl = page.url();
      await moreAction(page, 'Ordner löschen');
      const confirm = page.getByRole('dialog', { name: 'Ordner löschen' });
      // Inside: the moved project folder, the period with three years; the edited report.
      await expect(confirm).toContainText(
        'Der Ordner enthält 5 Ordner und 1 Datei. Alles wird in den Papierkorb verschoben.',
      );
      await expectNoAxeViolations(page);
      await confirm.getByRole('button', { name: 'Löschen' }).click();
      await expect(toast(page, 'Ordner wurde in den Papierkorb verschoben').first()).toBeVisible();
      await expect(page).toHaveURL(/\?folder=4$/);
      expect(page.url()).not.toBe(archiveUrl);
      await expect(tree(page).getByRole('treeitem', { name: archive })).toHaveCount(0);
    });

    await test.step('uploads several documents in one go, each titled from its file name', async () => {
      // Last, into /Allgemein, where the folder's deletion left the view.
      await page.getByRole('button', { name: 'Datei hochladen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Datei hochladen' });
      const chooserPromise = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Datei auswählen' }).click();
      await (
        await chooserPromise
      ).setFiles([
        { name: `Anlage A ${id}.pdf`, mimeType: 'application/pdf', buffer: PDF },
        { name: `Anlage B ${id}.pdf`, mimeType: 'application/pdf', buffer: PDF },
      ]);
      const titleB = dialog.getByRole('textbox', { name: labelled(`Titel von Anlage B ${id}.pdf`) });
      await expect(titleB).toHaveValue(`Anlage B ${id}`);
      await titleB.fill(`Anlage B ${id} (korrigiert)`);
      await expectNoAxeViolations(page);
      await dialog.getByRole('button', { name: '2 Dokumente hochladen' }).click();
      await expect(toast(page, '2 Dokumente wurden erfolgreich hochgeladen').first()).toBeVisible();
      await expect(grid(page).getByRole('link', { name: `Anlage A ${id}`, exact: true })).toBeVisible();
      await expect(
        grid(page).getByRole('link', { name: `Anlage B ${id} (korrigiert)`, exact: true }),
      ).toBeVisible();
    });

    await page.context().close();
  });

  test('uploads on /files/new with a new folder made on the way, and the pages around a file', async ({
    browser,
  }) => {
    const page = await signedInPage(browser, 'superAdmin');
    const id = stamp();

    await page.goto('/files/new');
    await expect(page.getByRole('heading', { name: 'Datei hochladen', level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
    const form = page.getByRole('form', { name: 'Datei hochladen' });
    await form.getByRole('button', { name: 'Hochladen' }).click();
    await expect(form.getByText('Titel ist erforderlich.')).toBeVisible();
    await expect(form.getByText('Bitte eine Datei auswählen.')).toBeVisible();

    await form.getByRole('button', { name: 'Neuer Ordner' }).click();
    const modal = page.getByRole('dialog', { name: 'Neuer Ordner' });
    await chooseOption(page, modal, 'Anlegen in', '/Mitgliedervertreter');
    await modal.getByRole('textbox', { name: labelled('Name') }).fill(`Versammlung ${id}`);
    await modal.getByRole('button', { name: 'Ordner erstellen' }).click();
    await expect(modal).toBeHidden();
    // The new folder is chosen, and under /Mitgliedervertreter the default role is Vertreter.
    await expect(form.getByRole('combobox', { name: labelled('Ordner') })).toHaveValue(
      `/Mitgliedervertreter/Versammlung ${id}`,
    );
    await expect(form.locator('.mantine-Pill-label')).toHaveText(['Vertreter']);
    await form.getByRole('textbox', { name: labelled('Titel') }).fill(`Einladung ${id}`);
    await form.locator('input[type="file"]').setInputFiles({
      name: 'einladung.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await form.getByRole('button', { name: 'Hochladen' }).click();
    await expect(page).toHaveURL(/\/files\?folder=\d+$/);
    await expect(grid(page).getByRole('link', { name: `Einladung ${id}`, exact: true })).toBeVisible();

    // The name opens the document page (decision 183).
    await grid(page)
      .getByRole('link', { name: `Einladung ${id}`, exact: true })
      .click();
    await expect(page).toHaveURL(/\/files\/show\/\d+$/);
    await expect(page.getByRole('heading', { name: `Einladung ${id}`, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: `/Mitgliedervertreter/Versammlung ${id}` })).toBeVisible();
    // Decision 124: editing is behind "Bearbeiten", the access tables are folded away.
    await expect(page.getByRole('heading', { name: 'Datei bearbeiten' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Zugriffe' })).toBeHidden();
    await page.getByRole('button', { name: /Wer das Dokument sehen kann/ }).click();
    await expect(page.getByRole('heading', { name: 'Zugriffe' })).toBeVisible();
    await expectNoAxeViolations(page);
    const fileUrl = page.url();

    await page.getByRole('link', { name: 'Bearbeiten', exact: true }).click();
    await expect(page).toHaveURL(fileUrl.replace('/show/', '/update/'));
    await expect(
      page.getByRole('heading', { name: `Datei bearbeiten: Einladung ${id}`, level: 1 }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('textbox', { name: labelled('Titel') }).fill(`Einladung ${id} korrigiert`);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page).toHaveURL(/\/files\?folder=\d+$/);
    await expect(
      grid(page).getByRole('link', { name: `Einladung ${id} korrigiert`, exact: true }),
    ).toBeVisible();

    const folderId = new URL(page.url()).searchParams.get('folder');
    await page.goto(`/folders/show/${folderId}`);
    await expect(
      page.getByRole('heading', { name: `Dateien im Ordner: Versammlung ${id}`, level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ordner bearbeiten' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Ordner bearbeiten' }).click();
    await expect(page).toHaveURL(new RegExp(`/folders/update/${folderId}$`));
    await expectNoAxeViolations(page);
    await page.getByRole('textbox', { name: labelled('Name') }).fill(`Versammlung ${id} Juni`);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(toast(page, 'Ordner erfolgreich aktualisiert').first()).toBeVisible();
    await expect(page.getByText(`/Mitgliedervertreter/Versammlung ${id} Juni`).first()).toBeVisible();

    await page.goto('/old');
    await expect(page.getByRole('heading', { name: 'Übersicht aktueller Dateien', level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
    const downloadPromise = page.waitForEvent('download');
    await page
      .getByRole('button', { name: `Einladung ${id} korrigiert.pdf herunterladen`, exact: true })
      .click();
    expect((await downloadPromise).suggestedFilename()).toBe(`Einladung ${id} korrigiert.pdf`);
    await page
      .getByRole('link', { name: `Ordner /Mitgliedervertreter/Versammlung ${id} Juni öffnen` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/folders/show/${folderId}$`));

    await page.goto(`/folders/update/${folderId}`);
    await page.getByRole('button', { name: 'Löschen' }).click();
    const confirm = page.getByRole('dialog', { name: 'Ordner löschen' });
    await expect(confirm).toContainText(
      'Der Ordner enthält 1 Datei. Alles wird in den Papierkorb verschoben.',
    );
    await confirm.getByRole('button', { name: 'Löschen' }).click();
    await expect(page).toHaveURL(/\/files\?folder=3$/);
    await page.context().close();
  });

  test('a Vertreter sees only what the role allows', async ({ browser, request }) => {
    const id = stamp();
    const token = await apiToken(request, 'admin');
    const secret = await uploadViaApi(request, token, {
      title: `Vertraulich ${id}`,
      folderId: 2,
      role: 'Aufsichtsrat',
      name: 'vertraulich.pdf',
      content: PDF,
    });
    const shared = await uploadViaApi(request, token, {
      title: `Rundschreiben ${id}`,
      folderId: 3,
      role: 'Vertreter',
      name: 'rundschreiben.pdf',
      content: PDF,
    });

    const page = await signedInPage(browser, 'vertreter');
    await page.goto('/files');
    await expect(tree(page).getByRole('treeitem', { name: 'Mitgliedervertreter' })).toBeVisible();
    await expect(tree(page).getByRole('treeitem', { name: 'Allgemein' })).toBeVisible();
    await expect(tree(page).getByRole('treeitem', { name: 'Aufsichtsrat' })).toHaveCount(0);
    for (const name of [
      'Neuer Ordner',
      'Ordner bearbeiten',
      'Ordner löschen',
      'Datei hochladen',
      'Amtsperiode erstellen',
      'Weitere Aktionen',
    ]) {
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    }
    // The contact box names the own committee only.
    await expect(page.getByRole('link', { name: 'vertreter@example.org' }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'aufsichtsrat@example.org' })).toHaveCount(0);
    await expectNoAxeViolations(page);

    await openInTree(page, 'Mitgliedervertreter');
    await grid(page)
      .getByRole('button', { name: `Aktionen für „Rundschreiben ${id}“` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Datei ausgewählt' });
    await expect(dialog.getByRole('button', { name: 'Bearbeiten' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Löschen' })).toHaveCount(0);
    const downloadPromise = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Herunterladen' }).click();
    expect((await downloadPromise).suggestedFilename()).toBe(`Rundschreiben ${id}.pdf`);
    await page.keyboard.press('Escape');

    await page.goto(`/files/show/${shared.id}`);
    await expect(page.getByRole('heading', { name: `Rundschreiben ${id}`, level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Löschen' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Datei bearbeiten' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Bearbeiten', exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page);

    await page.goto(`/files/show/${secret.id}`);
    await expect(page.getByRole('heading', { name: 'Seite wurde nicht gefunden', level: 1 })).toBeVisible();
    await expect(page.getByText(`Vertraulich ${id}`)).toHaveCount(0);
    await page.goto('/files?folder=2');
    await expect(page.getByText('Ordner nicht gefunden')).toBeVisible();
    await page.goto('/folders/show/2');
    await expect(page.getByRole('heading', { name: 'Seite wurde nicht gefunden', level: 1 })).toBeVisible();
    await page.goto('/files/new');
    await expect(page.getByRole('heading', { name: 'Seite wurde nicht gefunden', level: 1 })).toBeVisible();
    await page.context().close();
  });

  test('on a phone the tree opens in a drawer and the grid stays readable', async ({ browser }) => {
    const page = await signedInPage(browser, 'aufsichtsrat', 375);
    await page.goto('/files');
    await expect(tree(page)).toBeHidden();
    await page.getByRole('button', { name: 'Ordnerbaum öffnen' }).click();
    const drawer = page.getByRole('dialog', { name: 'Ordnerbaum' });
    await drawer.getByRole('treeitem', { name: 'Aufsichtsrat', exact: true }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\?folder=2$/);
    await expect(page.getByRole('heading', { name: 'Aufsichtsrat', level: 2 })).toBeAttached();
    await expect(
      page.getByRole('navigation', { name: 'Aktueller Pfad' }).getByText('Aufsichtsrat', { exact: true }),
    ).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

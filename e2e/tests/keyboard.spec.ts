// Keyboard-only journeys through every role's main path (#32 item 3): once a page has loaded, the
// user only presses keys (Tab, Shift+Tab, Enter, Space, arrows, Escape; text typed into fields).
// At each step: the focus reaches the expected control (by its role and name in the accessibility
// tree) and shows it; saves, timers and errors are told to a screen reader; every screen reached
// has targets of 24 px, no motion with reduced motion asked, and no images of text. axe scans each
// screen as in every test (helpers.ts). The annotations name the WCAG criteria each journey shows
// (scripts/vpat.mjs writes the conformance report from them).
import { expect, type Locator, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import {
  activate,
  checkScreen,
  expectReflow,
  expectAnnounced,
  expectErrorAnnounced,
  expectFocusVisible,
  expectFocusWithin,
  tabTo,
  wcag,
} from './a11y-checks';
import { apiGet, csrfHeaders, newUser, pageInNewContext, signIn, signUp, test, wrongAnswer } from './helpers';
import { classroom, LESSON } from './journey';
import { setPasswordByMail } from './mailbox';

/** The criteria every journey shows (focus, order, names, targets, motion, images of text). */
const JOURNEY = ['1.1.1', '1.3.1', '1.4.5', '2.1.1', '2.3.3', '2.4.3', '2.4.7', '2.4.11', '2.5.8', '3.2.1', '4.1.2'];

/** Selects the option labelled `label` of the focused native select with the arrow keys. */
async function arrowToOption(page: Page, select: Locator, label: string): Promise<void> {
  await expect(select).toBeFocused();
  const url = page.url();
  await page.keyboard.press('Home');
  for (let i = 0; i < 60; i++) {
    const chosen = await select.evaluate((el) => {
      const s = el as HTMLSelectElement;
      return s.selectedOptions[0]?.textContent?.trim() ?? '';
    });
    // Choosing changes no page and keeps the focus (WCAG 3.2.2, On Input).
    expect(page.url()).toBe(url);
    await expect(select).toBeFocused();
    if (chosen === label) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no option "${label}" reached with the arrow keys`);
}

/** Tab to the field, then type (the field's earlier content selected first and replaced). */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** Reduced motion for the page, as a user who asks for it. */
async function reducedMotion(page: Page): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
}

test(
  'keyboard only: a teacher creates a class, creates an assessment and assigns it',
  { annotation: wcag(...JOURNEY, '2.1.2', '2.4.1', '3.2.2', '3.3.1', '3.3.2', '4.1.3') },
  async ({ browser }) => {
    test.setTimeout(180_000);
    const page = await pageInNewContext(browser);
    await reducedMotion(page);
    await signUp(page, newUser('kbd-teacher'));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page);

    // The first Tab is the skip link; Enter moves the focus to the main content.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();

    // --- Create Class: the dialog takes the focus; an empty submit says what is missing.
    await activate(page, page.getByRole('button', { name: 'Create Class' }));
    const dialog = page.getByRole('dialog', { name: 'Create Class' });
    await expect(dialog).toBeVisible();
    await expectFocusWithin(page, dialog);
    // Escape leaves the dialog (no trap) and gives the focus back to its opener; then again.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Create Class' })).toBeFocused();
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    await expectFocusWithin(page, dialog);
    await activate(page, dialog.getByRole('button', { name: 'Create Class' }));
    await expectErrorAnnounced(page, 'Class name is required');
    await expect(dialog.getByLabel('Class Name')).toBeFocused();
    await page.keyboard.type('Keyboard Biology');
    await tabTo(page, dialog.getByRole('combobox', { name: 'Subject' }));
    await arrowToOption(page, dialog.getByRole('combobox', { name: 'Subject' }), 'Science');
    await typeInto(page, dialog.getByRole('textbox', { name: 'Period (optional)' }), '4');
    // Focus stays in the dialog: Tab goes round it, never behind it.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      await expectFocusWithin(page, dialog);
    }
    await activate(page, dialog.getByRole('button', { name: 'Create Class' }));
    await expectAnnounced(page, 'Class created successfully!');
    await expect(dialog).toBeHidden();
    await expectFocusVisibleOrReset(page);
    await checkScreen(page);

    // --- To the assessments by the navigation, then Create Assessment.
    await activate(page, page.getByRole('link', { name: 'Assessments', exact: true }), 'Enter', { max: 60 });
    await expect(page).toHaveURL(/\/assessments$/);
    await expect(page.getByRole('heading', { name: 'No assessments yet' })).toBeVisible();
    await checkScreen(page);
    await activate(page, page.getByRole('button', { name: 'Create Assessment' }).first(), 'Enter', { max: 60 });
    const create = page.getByRole('dialog', { name: /Create/ });
    await expect(create).toBeVisible();
    await expectFocusWithin(page, create);
    await checkScreen(page);
    await typeInto(page, create.getByLabel('Title', { exact: true }), 'Water Cycle Check');
    await typeInto(page, create.getByLabel('Content to assess'), LESSON);
    await tabTo(page, create.getByLabel('Question type'));
    await arrowToOption(page, create.getByLabel('Question type'), 'Multiple Choice');
    await typeInto(page, create.getByLabel('Number of questions'), '3');
    await tabTo(page, create.getByLabel('Class', { exact: true }));
    await arrowToOption(page, create.getByLabel('Class', { exact: true }), 'Keyboard Biology');
    await activate(page, create.getByRole('button', { name: 'Create Assessment' }));
    await expectAnnounced(page, 'Assessment created successfully');
    await expect(page).toHaveURL(/\/assessment-preview\/[0-9a-f-]+$/, { timeout: 30_000 });
    await expect(page.getByTestId('question-preview').first()).toBeVisible();
    await checkScreen(page);

    // --- Assign from the preview.
    await activate(page, page.getByRole('button', { name: 'Assign to Students' }), 'Enter', { max: 60 });
    await expectAnnounced(page, 'Assessment Assigned!');
  },
);

/** After a dialog closes the focus is back on the page (on its opener or the main content), shown. */
async function expectFocusVisibleOrReset(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null), {
      message: 'the focus returned to the page after the dialog closed',
    })
    .toBe(true);
}

test(
  'keyboard only: a student joins a class, takes a timed assessment, submits and practises',
  { annotation: wcag(...JOURNEY, '1.4.10 the taking, result and practice pages at 320 px', '3.3.1', '4.1.3', '3.3.4') },
  async ({ browser }) => {
    test.setTimeout(240_000);
    const c = await classroom(browser, { questionCount: 3 });
    // Five minutes: a page opened with five minutes or less left says so at once.
    const response = await c.teacher.request.put(`/api/assessments/${c.assessment.id}`, {
      data: { timeLimitSeconds: 300 },
      headers: await csrfHeaders(c.teacher),
    });
    expect(response.ok(), `time limit: ${response.status()}`).toBeTruthy();

    const page = await pageInNewContext(browser);
    await reducedMotion(page);
    await signUp(page, newUser('kbd-student'), 'Student');
    await page.goto('/');
    await checkScreen(page);

    // --- Join by code: a wrong code first (the error is told), then the class's.
    await activate(page, page.getByRole('link', { name: 'Enter Class Code' }), 'Enter', { max: 60 });
    await expect(page.getByRole('heading', { name: 'Join a Class' })).toBeVisible();
    await checkScreen(page);
    await typeInto(page, page.getByLabel('Class Code'), 'ZZZZZZZ');
    await page.keyboard.press('Enter');
    await expectAnnounced(page, 'Class not found');
    await expect(page.getByLabel('Class Code')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(c.cls.joinCode);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('region', { name: 'My Classes' })).toContainText(c.cls.name);

    // --- Start the assessment from the dashboard (it shows once the service has heard of the join).
    const start = page
      .getByRole('article', { name: c.assessment.title })
      .getByRole('link', { name: 'Start Assessment' });
    await expect(async () => {
      await page.reload();
      await expect(start).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await checkScreen(page);
    await activate(page, start, 'Enter', { max: 80 });
    await expect(page).toHaveURL(new RegExp(`/assessment/${c.assessment.id}$`));
    await expect(page.getByText(`Question 1 of ${c.questions.length}`)).toBeVisible();

    // The timer: the warning at five minutes is told, and the student asks for the time left.
    await expect(page.getByTestId('time-polite')).toHaveText(/minutes? .*left$|^5 minutes left$/);
    await expectAnnounced(page, /minutes?( \d+ seconds?)? left/);
    await activate(page, page.getByRole('button', { name: 'Time left' }));
    await expectAnnounced(page, /^Time left: \d+ minutes?/);
    await checkScreen(page);
    await expectReflow(page);

    // --- Answer each question with the keyboard: arrows in the choices, Space to pick.
    const questions = await apiGet<{ id: string; questionText: string; options: string[] }[]>(
      page,
      `/api/assessments/${c.assessment.id}/questions`,
    );
    for (const [i, shown] of questions.entries()) {
      await expect(page.getByText(`Question ${i + 1} of ${questions.length}`)).toBeVisible();
      const choices = page.getByRole('group', { name: 'Answer choices' });
      const teacherCopy = c.questions.find((q) => q.id === shown.id)!;
      const answer = i === 0 ? teacherCopy.correctAnswer! : wrongAnswer(teacherCopy);
      await tabTo(page, choices.getByRole('radio').first());
      await page.keyboard.press('Space');
      for (let k = 0; k < 10 && !(await choices.getByRole('radio', { name: answer, exact: true }).isChecked()); k++)
        await page.keyboard.press('ArrowDown');
      await expect(choices.getByRole('radio', { name: answer, exact: true })).toBeChecked();
      if (i === 0) {
        // Saving says so in a status a screen reader reads.
        await activate(page, page.getByRole('button', { name: 'Save Progress' }));
        await expectAnnounced(page, /Progress Saved|Saved/);
      }
      if (i < questions.length - 1) await activate(page, page.getByRole('button', { name: 'Next' }));
    }
    await checkScreen(page);

    // --- Submit: the confirmation dialog takes the focus.
    await activate(page, page.getByRole('button', { name: 'Submit Assessment' }), 'Enter', { max: 60 });
    const confirm = page.getByRole('dialog');
    await expectFocusWithin(page, confirm);
    await activate(page, confirm.getByRole('button', { name: /Submit( now)?$/ }));
    await expectAnnounced(page, 'Assessment submitted successfully!');
    await expect(page.getByTestId('result-score')).toBeVisible();
    await checkScreen(page);
    await expectReflow(page);

    // --- Practise from the dashboard's result card.
    await activate(page, page.getByRole('link', { name: 'Back to Dashboard' }), 'Enter', { max: 80 });
    const card = page.getByRole('article', { name: `Result: ${c.assessment.title}` });
    await expect(card).toBeVisible();
    await activate(page, card.getByRole('link', { name: /Extra Help Materials|Challenge/ }), 'Enter', { max: 80 });
    await expect(page).toHaveURL(new RegExp(`/support/${c.assessment.id}/`));
    await expect(page.getByRole('heading', { name: 'Reading' })).toBeVisible({ timeout: 20_000 });
    await checkScreen(page);
    await expectReflow(page);
    for (let i = 0; i < 20; i++) {
      const position = page.getByText(/^Question \d+ of \d+$/);
      if ((await position.count()) === 0) break;
      const [current, total] = ((await position.innerText()).match(/\d+/g) ?? []).map(Number);
      const radios = page.getByRole('radio');
      if ((await radios.count()) > 0) {
        await tabTo(page, radios.first());
        await page.keyboard.press('Space');
      } else {
        await typeInto(page, page.getByLabel('Your answer'), 'water');
      }
      await activate(page, page.getByRole('button', { name: current === total ? 'Submit' : 'Next', exact: true }));
      if (current === total) break;
      await expect(page.getByText(`Question ${(current ?? 0) + 1} of ${total}`)).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: /Keep Practicing|Great Job!/ }).first()).toBeVisible();
    await expect(page.getByTestId('practice-score')).toBeVisible();
    await checkScreen(page);
  },
);

function rosterZip(run: string, domain: string): Buffer {
  const csv = (lines: string[]) => strToU8(lines.join('\r\n'));
  return Buffer.from(
    zipSync({
      'manifest.csv': csv([
        'propertyName,value',
        'manifest.version,1.0',
        'oneroster.version,1.2',
        'file.users,bulk',
        'file.roles,bulk',
        'file.classes,bulk',
        'file.enrollments,bulk',
      ]),
      'users.csv': csv([
        'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,email',
        `kt-${run},,,true,kt${run},,Kira,Teacher,kira.${run}@${domain}`,
        `ks-${run},,,true,ks${run},,Kai,Pupil,kai.${run}@${domain}`,
      ]),
      'roles.csv': csv([
        'sourcedId,status,dateLastModified,userSourcedId,roleType,role',
        `kr1-${run},,,kt-${run},primary,teacher`,
        `kr2-${run},,,ks-${run},primary,student`,
      ]),
      'classes.csv': csv([
        'sourcedId,status,dateLastModified,title,courseSourcedId,subjects,periods',
        `kc-${run},,,Keyboard Algebra ${run},co-1,Math,2`,
      ]),
      'enrollments.csv': csv([
        'sourcedId,status,dateLastModified,classSourcedId,userSourcedId,role,primary',
        `ke1-${run},,,kc-${run},kt-${run},teacher,true`,
        `ke2-${run},,,kc-${run},ks-${run},student,false`,
      ]),
    }),
  );
}

test(
  'keyboard only: a district admin imports a roster',
  { annotation: wcag(...JOURNEY, '4.1.3', '3.3.4') },
  async ({ page }) => {
    test.setTimeout(150_000);
    const domain = 'demo.checkpoint.school';
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = { email: `admin@${domain}`, password: `admin-pass-${run}` };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, { ...admin, firstName: '', lastName: '' });
    await reducedMotion(page);

    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkScreen(page);
    await activate(page, page.getByRole('link', { name: 'Roster' }), 'Enter', { max: 80 });
    await expect(page).toHaveURL(/\/admin\/roster$/);
    await expect(page.getByRole('heading', { name: 'Roster' })).toBeVisible();
    await checkScreen(page);

    // The file input opens the system's file chooser from the keyboard (Space); the file is given there.
    await tabTo(page, page.getByLabel('OneRoster package'), { max: 80 });
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles({ name: 'roster.zip', mimeType: 'application/zip', buffer: rosterZip(run, domain) });
    await activate(page, page.getByRole('button', { name: 'Preview' }));
    const preview = page.getByTestId('roster-preview');
    await expect(preview.getByRole('table', { name: 'Rows per file' })).toBeVisible();
    await checkScreen(page);
    await activate(page, preview.getByRole('button', { name: 'Apply…' }));
    const confirm = page.getByTestId('roster-confirm');
    await expectAnnounced(page, 'Users: 2 accounts created');
    await activate(page, confirm.getByRole('button', { name: 'Confirm and apply' }));
    await expectAnnounced(page, 'Import complete: 2 new');
    await checkScreen(page);
  },
);

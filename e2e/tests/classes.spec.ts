// Class journeys: create and copy a code, join by code (and while signed out), the join
// errors, browse and join within a district, archive / restore / delete, remove a student.
import { expect, type Browser, type Page } from '@playwright/test';
import { checkA11y, newUser, openSignUpLink, signUp, submitSignUp, type TestUser, test } from './helpers';

// The demo district (DEMO_SEED on in playwright.config.ts) owns this domain: sign-ups with it join it
// by the mailed link (signUp).
const DISTRICT_DOMAIN = 'demo.checkpoint.school';

function districtUser(prefix: string): TestUser {
  const user = newUser(prefix);
  return { ...user, email: user.email.replace(/@.*$/, `@${DISTRICT_DOMAIN}`) };
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  return context.newPage();
}

/** On /classes: the classes-page Create Class form (name, subject, period all required). */
async function createClassOnClassesPage(page: Page, name: string, subject = 'Science', period = '2') {
  await page.goto('/classes');
  await expect(page.getByRole('heading', { name: 'My Classes' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Class' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Class Name').fill(name);
  await dialog.getByLabel('Subject').fill(subject);
  await dialog.getByLabel('Period').fill(period);
  await dialog.getByRole('button', { name: 'Create Class' }).click();
  await expect(page.getByText('Class created successfully!')).toBeVisible();
  await expect(page.getByRole('article', { name })).toBeVisible();
}

test('a teacher creates a class and copies its code; a student joins it in lower case; wrong and repeated codes fail', async ({
  browser,
}) => {
  const teacher = newUser('classes-teacher');
  const page = await newPage(browser);
  await signUp(page, teacher);

  // Dashboard without a class: the welcome card's Create Class (subject from the 7 options).
  await page.getByRole('button', { name: 'Create Class' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Create Class' }).click();
  await expect(dialog.getByText('Class name is required')).toBeVisible();
  await expect(dialog.getByText('Subject is required')).toBeVisible();
  await checkA11y(page, 'create class dialog with errors');
  await dialog.getByLabel('Class Name').fill('Biology 101');
  await dialog.getByLabel('Subject').selectOption('Science');
  await dialog.getByLabel('Period (optional)').fill('3');
  await dialog.getByRole('button', { name: 'Create Class' }).click();
  await expect(page.getByText('Class created successfully!')).toBeVisible();
  await expect(page.getByTestId('summary-Total Students')).toHaveText('0');
  // A count of students, its share in the note: none yet, so no share either.
  await expect(page.getByTestId('summary-Need Support')).toHaveText('0');
  await expect(page.getByText('No results yet')).toHaveCount(3);

  // /classes, then the class detail page and its join code.
  await page.getByRole('link', { name: 'My Classes' }).click();
  await expect(page).toHaveURL(/\/classes$/);
  await page
    .getByRole('article', { name: 'Biology 101' })
    .getByRole('link', { name: /View Details/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Biology 101' })).toBeVisible();
  await expect(page.getByText('Period 3')).toBeVisible();
  await expect(page.getByTestId('stat-Students Enrolled')).toHaveText('0');
  const codeBadge = page.getByRole('button', { name: /^Join code / });
  const code = (await codeBadge.innerText()).trim();
  expect(code).toMatch(/^[A-Z2-9]{6,8}$/);
  await codeBadge.click();
  await expect(page.getByText('Copied!')).toBeVisible();
  await expect(page.getByText('Join code copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  const classUrl = page.url();

  // A student joins with the code typed in lower case.
  const student = newUser('classes-student');
  const studentPage = await newPage(browser);
  await signUp(studentPage, student, 'Student');
  await expect(studentPage.getByRole('link', { name: 'Browse Classes' })).toBeVisible();
  await studentPage.getByRole('link', { name: 'Enter Class Code' }).click();
  await expect(studentPage.getByRole('heading', { name: 'Join a Class' })).toBeVisible();
  const codeInput = studentPage.getByLabel('Class Code');
  await codeInput.pressSequentially(code.toLowerCase());
  await expect(codeInput).toHaveValue(code);
  await studentPage.getByRole('button', { name: 'Join Class' }).click();
  await expect(studentPage).toHaveURL(/\/$/);
  const myClasses = studentPage.getByRole('region', { name: 'My Classes' });
  await expect(myClasses).toContainText('Biology 101');
  await expect(myClasses).toContainText('Period 3');
  await expect(myClasses).toContainText('Science');
  await expect(myClasses).toContainText(`Teacher: ${teacher.firstName} ${teacher.lastName}`);

  // A second join and a wrong code show their messages ('Class not found', 'Already enrolled').
  await studentPage.goto('/join-class');
  await studentPage.getByLabel('Class Code').fill(code);
  await studentPage.getByRole('button', { name: 'Join Class' }).click();
  await expect(studentPage.getByRole('alert')).toContainText("You're already enrolled in this class.");
  await studentPage.getByLabel('Class Code').fill('ZZZZZZZ');
  await studentPage.getByRole('button', { name: 'Join Class' }).click();
  await expect(studentPage.getByRole('alert')).toContainText(
    'Class not found. Please check the join code and try again.',
  );
  await studentPage.getByLabel('Class Code').fill('abc');
  await studentPage.getByRole('button', { name: 'Join Class' }).click();
  await expect(studentPage.getByText('Join code must be at least 6 characters')).toBeVisible();

  // The teacher sees the student in Manage Students and removes them.
  await page.goto(classUrl);
  await expect(page.getByTestId('stat-Students Enrolled')).toHaveText('1');
  await page.getByRole('button', { name: 'Manage Students' }).click();
  const manage = page.getByRole('dialog');
  await expect(manage.getByRole('tab', { name: 'Manage Students' })).toHaveAttribute('aria-selected', 'true');
  await expect(manage).toContainText(student.email);
  await checkA11y(page, 'manage students dialog');
  await manage.getByRole('button', { name: `Remove ${student.firstName} ${student.lastName}` }).click();
  await manage.getByRole('button', { name: 'Remove Student' }).click();
  await expect(manage.getByText('No students in this class yet.')).toBeVisible();
});

test('a signed-out visitor enters a code, signs up as a student and is in the class right after', async ({
  browser,
}) => {
  const teacherPage = await newPage(browser);
  await signUp(teacherPage, newUser('pending-teacher'));
  await createClassOnClassesPage(teacherPage, 'Chemistry', 'Science', '5');
  const code = (
    await teacherPage.getByRole('article', { name: 'Chemistry' }).locator('dd.font-monospace').innerText()
  ).trim();

  const page = await newPage(browser);
  await page.goto('/join-class');
  await page.getByLabel('Class Code').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Join Class' }).click();
  await expect(page).toHaveURL(/\/auth\?mode=login&next=join$/);
  await expect(page.getByText(`Sign in or create a student account to join class ${code}.`)).toBeVisible();

  const visitor = newUser('pending-student');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await submitSignUp(page, visitor, 'Student');
  // The code waits in this tab: the link opened here makes the account and joins the class.
  await openSignUpLink(page, visitor);
  await expect(page.getByText("You've joined Chemistry!")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('region', { name: 'My Classes' })).toContainText('Chemistry');
});

test('a student of the district browses the classes of the district and joins one', async ({ browser }) => {
  // The district is shared with the other tests (and earlier runs on the same server): counts are
  // taken before the class exists, and the class name is this run's own.
  const page = await newPage(browser);
  await signUp(page, districtUser('browse-student'), 'Student');
  await page.getByRole('link', { name: 'Browse Classes' }).click();
  await expect(page).toHaveURL(/\/browse-classes$/);
  await expect(page.getByRole('link', { name: /Back to Dashboard/ })).toBeVisible();
  const stat = (name: string) => page.getByTestId(`stat-${name}`);
  await expect(stat('Available Classes')).toHaveText(/^\d+$/);
  const classesBefore = Number(await stat('Available Classes').textContent());
  const teachersBefore = Number(await stat('Teachers').textContent());

  const teacher = districtUser('browse-teacher');
  const teacherPage = await newPage(browser);
  await signUp(teacherPage, teacher);
  const name = `World History ${Date.now().toString(36)}`;
  await createClassOnClassesPage(teacherPage, name, 'History', '1');

  await page.reload();
  const card = page.getByRole('article', { name });
  await expect(card).toContainText('Period 1');
  await expect(card).toContainText('History');
  await expect(card).toContainText(`Teacher: ${teacher.firstName} ${teacher.lastName}`);
  await expect(card).toContainText('0 students enrolled');
  await expect(stat('Available Classes')).toHaveText(String(classesBefore + 1));
  await expect(stat('Classes Joined')).toHaveText('0');
  await expect(stat('Teachers')).toHaveText(String(teachersBefore + 1));

  await card.getByRole('button', { name: 'Join Class' }).click();
  await expect(page.getByText(`You've joined ${name}!`)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('region', { name: 'My Classes' })).toContainText(name);

  // Joined classes are hidden from the list; on a fresh server (as in CI) that leaves the empty
  // state, which offers the class code instead.
  await page.goto('/browse-classes');
  await expect(stat('Classes Joined')).toHaveText('1');
  await expect(page.getByRole('article', { name })).toHaveCount(0);
  if (classesBefore === 0) {
    await page.getByRole('link', { name: 'Use Class Code Instead' }).click();
    await expect(page).toHaveURL(/\/join-class$/);
  }
});

test('a teacher archives, restores and deletes a class', async ({ browser }) => {
  const page = await newPage(browser);
  await signUp(page, newUser('archive-teacher'));
  await page.goto('/classes');
  await expect(page.getByRole('heading', { name: 'No classes yet' })).toBeVisible();
  await createClassOnClassesPage(page, 'Geometry', 'Math', '6');

  const card = page.getByRole('article', { name: 'Geometry' });
  await card.getByRole('button', { name: 'Edit Geometry' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Period').fill('');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('Period is required')).toBeVisible();
  await checkA11y(page, 'edit class dialog with an error');
  await edit.getByLabel('Period').fill('7');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Class updated successfully')).toBeVisible();
  await expect(card).toContainText('Period 7');

  await card.getByRole('button', { name: 'Archive Geometry' }).click();
  const confirmArchive = page.getByRole('dialog');
  await expect(confirmArchive).toContainText('hidden from your main view but can be restored later');
  await confirmArchive.getByRole('button', { name: 'Archive Class' }).click();
  await expect(page.getByText('Class archived successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No classes yet' })).toBeVisible();

  await page.getByRole('button', { name: 'Show Archived' }).click();
  await expect(page.getByRole('heading', { name: 'Archived Classes' })).toBeVisible();
  const archived = page.getByRole('article', { name: 'Geometry' });
  await expect(archived.getByRole('link', { name: /View Details/ })).toHaveCount(0);
  await archived.getByRole('button', { name: 'Restore Geometry' }).click();
  await expect(page.getByText('Class restored successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No archived classes' })).toBeVisible();

  await page.getByRole('button', { name: 'Show Active' }).click();
  await expect(page.getByRole('heading', { name: 'My Classes' })).toBeVisible();
  await page.getByRole('article', { name: 'Geometry' }).getByRole('button', { name: 'Delete Geometry' }).click();
  const confirmDelete = page.getByRole('dialog');
  await expect(confirmDelete).toContainText('will permanently remove all associated data');
  await confirmDelete.getByRole('button', { name: 'Delete Class' }).click();
  await expect(page.getByText('Class deleted successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No classes yet' })).toBeVisible();

  // A class that is gone: the detail page's not-found state.
  await page.goto('/class/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Class not found' })).toBeVisible();
  await page.getByRole('link', { name: /Back to Classes/ }).click();
  await expect(page).toHaveURL(/\/classes$/);
});

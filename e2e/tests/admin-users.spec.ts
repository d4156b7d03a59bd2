// A district admin manages people in the browser (/admin/users): finds a teacher of the district,
// makes them an admin and a teacher again, then removes them; the removed teacher's open session
// ends at once and their sign-in is refused.
import { expect } from '@playwright/test';
import { checkA11y, newUser, pageInNewContext, signIn, signOut, signUp, test } from './helpers';
import { setPasswordByMail } from './mailbox';

const DOMAIN = 'demo.checkpoint.school';

test.describe('district admin: users', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when the admin promotes, demotes and removes a teacher, then each change shows and the removed teacher is signed out at once', async ({
    page,
    browser,
  }) => {
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const teacherPage = await pageInNewContext(browser);
    const teacher = { ...newUser('teacher'), email: `tina.${run}@${DOMAIN}`, lastName: `Tutor${run}` };
    await signUp(teacherPage, teacher);

    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await page.getByRole('searchbox', { name: 'Search users' }).fill(teacher.lastName);
    const name = `${teacher.firstName} ${teacher.lastName}`;
    const row = page.getByRole('row').filter({ hasText: teacher.email.toLowerCase() });
    await expect(row).toHaveCount(1);

    await row.getByRole('button', { name: `Make ${name} an admin` }).click();
    await expect(page.getByText(`${name} is now an admin.`)).toBeVisible();
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Make ${name} a teacher` }).click();
    await expect(page.getByText(`${name} is now a teacher.`)).toBeVisible();

    // Demoting ended the teacher's sessions: they sign in again before being removed.
    await teacherPage.goto('/');
    await signIn(teacherPage, teacher);
    await expect(teacherPage.getByRole('button', { name: 'User menu' })).toBeVisible();

    await row.getByRole('button', { name: `Remove ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('signed out everywhere');
    await checkA11y(page, 'remove user dialog');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`${name} was removed.`)).toBeVisible();
    await expect(row.getByText('Removed')).toBeVisible();

    // The removed teacher's next request is refused: the app sends them to sign-in.
    await teacherPage.goto('/classes');
    await expect(teacherPage).toHaveURL(/\/auth/);
    await signOut(page);
  });
});

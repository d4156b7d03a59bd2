// Common assessments in the browser: the district admin writes a draft on
// /admin/common-assessments with the question form, publishes it to every school, grade and
// subject; a teacher of the district sees it under District assessments and assigns it to a class.
import { expect } from '@playwright/test';
import { apiPost, checkA11y, newUser, pageInNewContext, signIn, signUp, test } from './helpers';
import type { Classroom } from './journey';
import { setPasswordByMail } from './mailbox';

const DOMAIN = 'demo.checkpoint.school';

test.describe('common assessments', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when the admin publishes a common assessment, then a district teacher assigns it to a class and opens the copy', async ({
    page,
    browser,
  }) => {
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const title = `Benchmark ${run}`;
    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Common assessments' })
      .click();
    await expect(page.getByRole('heading', { name: 'Common assessments', level: 1 })).toBeVisible();
    await checkA11y(page, 'common assessments page');

    const form = page.getByRole('form', { name: 'New common assessment' });
    await form.getByLabel('Title').fill(title);
    await page.getByLabel('Question Text').fill('Is 2:4 the same ratio as 1:2?');
    await page.getByLabel('Question Type').selectOption('true_false');
    await page.getByLabel('True', { exact: true }).check();
    await page.getByRole('button', { name: 'Add Question' }).click();
    await form.getByRole('button', { name: 'Save draft' }).click();
    const item = page.getByRole('listitem').filter({ hasText: title });
    await expect(item).toContainText('Draft');
    await item.getByRole('button', { name: 'Publish…' }).click();
    await checkA11y(page, 'publish form');
    await item.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(item).toContainText('Published');
    await item.getByRole('button', { name: 'View report' }).click();
    await expect(item.getByRole('rowheader', { name: 'District' })).toBeVisible();
    await checkA11y(page, 'common assessment report');

    const teacher = await pageInNewContext(browser);
    const teacherUser = { ...newUser('ca-teacher'), email: `ca-teacher.${run}@${DOMAIN}` };
    await signUp(teacher, teacherUser);
    const cls = await apiPost<Classroom['cls']>(teacher, '/api/classes', {
      name: `Math ${run}`,
      subject: 'Mathematics',
      period: '1',
    });
    await teacher.goto('/assessments');
    const assign = teacher.getByRole('form', { name: `Assign ${title}` });
    await assign.getByLabel('Class').selectOption(cls.id);
    await assign.getByRole('button', { name: 'Assign to class' }).click();
    await checkA11y(teacher, 'district assessments after assigning');
    await assign.getByRole('link', { name: "Open the class's copy" }).click();
    await expect(teacher.getByText('Is 2:4 the same ratio as 1:2?')).toBeVisible();
  });
});

// A district's OneRoster import in the browser: the district admin (demo district; its password
// set with the mailed reset link) previews and applies a small roster on /admin/roster; a rostered
// student, whose address the district vouched for, sets a password by the reset link, signs in and
// sees the class on the dashboard.
import { expect } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { pageInNewContext, signIn, signOut, test } from './helpers';
import { setPasswordByMail } from './mailbox';

const DOMAIN = 'demo.checkpoint.school';

function rosterZip(run: string): Buffer {
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
        `t-${run},,,true,t${run},,Rosa,Teacher,rosa.${run}@${DOMAIN}`,
        `s-${run},,,true,s${run},,Robin,Pupil,robin.${run}@${DOMAIN}`,
        `x-${run},,,true,x${run},,Bad,Row,not-an-email`,
      ]),
      'roles.csv': csv([
        'sourcedId,status,dateLastModified,userSourcedId,roleType,role',
        `r1-${run},,,t-${run},primary,teacher`,
        `r2-${run},,,s-${run},primary,student`,
        `r3-${run},,,x-${run},primary,student`,
      ]),
      'classes.csv': csv([
        'sourcedId,status,dateLastModified,title,courseSourcedId,subjects,periods',
        `c-${run},,,Rostered Geometry ${run},co-1,Math,2`,
      ]),
      'enrollments.csv': csv([
        'sourcedId,status,dateLastModified,classSourcedId,userSourcedId,role,primary',
        `e1-${run},,,c-${run},t-${run},teacher,true`,
        `e2-${run},,,c-${run},s-${run},student,false`,
      ]),
    }),
  );
}

test.describe('roster import', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when the district admin imports a roster on /admin, then a rostered student signs in and sees the class', async ({
    page,
    browser,
  }) => {
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}` };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, { ...admin, firstName: '', lastName: '' });

    await page.goto('/admin/roster');
    await expect(page.getByRole('heading', { name: 'Roster' })).toBeVisible();
    await page
      .getByLabel('OneRoster package')
      .setInputFiles({ name: 'roster.zip', mimeType: 'application/zip', buffer: rosterZip(run) });
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('roster-preview');
    const counts = preview.getByRole('table', { name: 'Rows per file' });
    await expect(counts.getByRole('row', { name: /users\.csv/ })).toContainText(/3\s*2\s*0\s*0\s*0\s*0\s*1/);
    // Each file's rows add up: roles.csv's rows are read (3), none imported by themselves.
    await expect(counts.getByRole('row', { name: /roles\.csv/ })).toContainText(/3\s*0\s*0\s*0\s*0\s*3\s*0/);
    const errors = preview.getByRole('table', { name: 'Rows with errors' });
    await expect(errors.getByRole('row', { name: /not-an-email/ })).toContainText(`users.csv4x-${run}email`);
    // Apply asks for confirmation, saying what will happen with the counts.
    await preview.getByRole('button', { name: 'Apply…' }).click();
    const confirm = page.getByTestId('roster-confirm');
    await expect(confirm).toContainText('Users: 2 accounts created, 0 updated, 0 removed');
    await expect(confirm).toContainText('Enrollments: 2 added, 0 ended.');
    await expect(confirm).toContainText('1 row has errors and will be skipped.');
    await confirm.getByRole('button', { name: 'Confirm and apply' }).click();
    await expect(page.getByTestId('roster-summary')).toContainText('Import complete: 2 new', { timeout: 30_000 });
    await signOut(page);

    const studentPage = await pageInNewContext(browser);
    const student = { email: `robin.${run}@${DOMAIN}`, password: `student-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(studentPage, student.email, student.password);
    await signIn(studentPage, student);
    const myClasses = studentPage.getByRole('region', { name: 'My Classes' });
    await expect(async () => {
      await studentPage.reload();
      await expect(myClasses).toContainText(`Rostered Geometry ${run}`, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  });
});

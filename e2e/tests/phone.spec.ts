// The phone (390 px wide): the teacher's class page fits without scrolling sideways, and a toast
// never lies over the buttons the student or teacher is using.
import { expect, type Locator, type Page } from '@playwright/test';
import { newUser, test } from './helpers';
import { classroom, studentOf, submitted } from './journey';

const PHONE = { width: 390, height: 600 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'on screen').not.toBeNull();
  return box!;
}

/** The buttons at the bottom edge of the window, where a phone's thumb is (and a toast used to be). */
async function toBottomEdge(button: Locator): Promise<void> {
  await button.evaluate((el) => el.scrollIntoView({ block: 'end' }));
}

/** The toast shows and none of the buttons lies under it. */
async function expectToastClearOf(page: Page, text: string, buttons: Locator[]): Promise<void> {
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText(text);
  await expect(toast).toBeVisible();
  const toastBox = await boxOf(toast);
  expect(toastBox.x + toastBox.width, 'toast within the window').toBeLessThanOrEqual(PHONE.width + 0.5);
  for (const button of buttons) {
    const box = await boxOf(button);
    expect(overlaps(toastBox, box), `toast over ${await button.textContent()}`).toBe(false);
  }
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toHaveCount(0);
}

test('when a teacher opens a class page on a 390 px phone, then nothing is wider than the window', async ({
  browser,
}) => {
  // Long words (an address, a name, a subject) that cannot wrap at a space, as real ones can be.
  const teacherUser = newUser('teacher');
  const c = await classroom(browser, {
    teacherUser: { ...teacherUser, email: `averyveryverylongteachername.${teacherUser.email}` },
    className: 'PhotosynthesisAndCellularRespiration Advanced Placement',
    subject: 'EnvironmentalScienceAndSustainability',
  });
  const { page: student } = await studentOf(browser, c.cls.joinCode);
  await submitted(student, c, 2);

  await c.teacher.setViewportSize(PHONE);
  await c.teacher.goto(`/class/${c.cls.id}`);
  await expect(c.teacher.getByRole('heading', { level: 1 })).toContainText('PhotosynthesisAndCellularRespiration');
  await expect(
    c.teacher.getByRole('region', { name: 'Class Results' }).getByRole('cell', { name: /50%/ }),
  ).toBeVisible();
  const widths = await c.teacher.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(390);
  expect(widths.body).toBeLessThanOrEqual(390);
});

test("when a toast shows on a phone, then it covers neither the taking page's buttons nor a form's submit button", async ({
  browser,
}) => {
  const c = await classroom(browser, { questionCount: 3 });
  const { page: student } = await studentOf(browser, c.cls.joinCode);
  await expect
    .poll(async () => (await student.request.get('/api/student/available-assessments')).text(), { timeout: 15_000 })
    .toContain(c.assessment.id);
  await student.setViewportSize(PHONE);

  await student.goto(`/assessment/${c.assessment.id}`);
  await expect(student.getByText('Question 1 of 3')).toBeVisible();
  await student.getByRole('radio').first().check();
  const previous = student.getByRole('button', { name: 'Previous' });
  const save = student.getByRole('button', { name: 'Save Progress' });
  const next = student.getByRole('button', { name: 'Next' });
  await toBottomEdge(save);
  await save.click();
  await expectToastClearOf(student, 'Your answers have been saved.', [previous, save, next]);

  // The last question: Submit Assessment in place of Next.
  await next.click();
  await next.click();
  await expect(student.getByText('Question 3 of 3')).toBeVisible();
  await student.getByRole('radio').first().check();
  const submit = student.getByRole('button', { name: 'Submit Assessment' });
  await toBottomEdge(submit);
  await save.click();
  await expectToastClearOf(student, 'Your answers have been saved.', [previous, save, submit]);

  // A form: the join form's error toast leaves its Join Class button free.
  await student.goto('/join-class');
  await student.getByLabel('Class Code').fill('ZZZZZZZ');
  const join = student.getByRole('button', { name: 'Join Class' });
  await toBottomEdge(join);
  await join.click();
  await expectToastClearOf(student, 'Class not found', [join]);
});

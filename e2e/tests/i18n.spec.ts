// Spanish (issue 32): a student whose locale is es (PUT /api/auth/user) sees the student's routes in
// Spanish with <html lang="es"> and no raw key; a signed-out visitor whose browser prefers Spanish
// gets the sign-in page in Spanish. The teacher's question text stays as written.
import { expect, type Page } from '@playwright/test';
import { csrfHeaders, test } from './helpers';
import { classroom, studentOf } from './journey';

/** A key of the interface's files shown raw: 'ns:key' or a dotted lower-camel key. */
const RAW_KEY = /\b(?:common|auth|student|take|teacher|admin):[A-Za-z]|\b[a-z]+[A-Z]?[a-zA-Z]*\.[a-z]+[A-Z][a-zA-Z]*\b/;

async function expectSpanish(page: Page, path: string, known: string | RegExp) {
  await page.goto(path);
  await expect(page.getByText(known).first(), `${path}: ${String(known)}`).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  const text = await page.locator('body').innerText();
  expect(text.match(RAW_KEY)?.[0], `${path}: a raw key`).toBeUndefined();
}

test('when a student chooses Spanish, then their routes are in Spanish with <html lang="es"> and no raw keys', async ({
  browser,
}) => {
  const c = await classroom(browser, { questionCount: 2 });
  const { page: student } = await studentOf(browser, c.cls.joinCode);
  const put = await student.request.put('/api/auth/user', {
    data: { locale: 'es' },
    headers: await csrfHeaders(student),
  });
  expect(put.ok(), `PUT locale: ${put.status()}`).toBeTruthy();
  expect(((await put.json()) as { locale: string }).locale).toBe('es');

  await expectSpanish(student, '/', 'Tus clases y evaluaciones');
  await expectSpanish(student, '/join-class', 'Escribe el código de la clase que te dio tu maestro');
  await expectSpanish(student, `/assessment/${c.assessment.id}`, /Pregunta 1 de 2/);
  await expectSpanish(student, '/profile', 'Idioma');

  // Back to English from the profile's setting.
  await student.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await expect(student.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(student.locator('html')).toHaveAttribute('lang', 'en');
});

test('when a signed-out browser prefers Spanish, then the sign-in page is in Spanish with <html lang="es">', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'es-MX' });
  const page = await context.newPage();
  await expectSpanish(page, '/auth', 'Bienvenido a Checkpoint');
  await expectSpanish(page, '/forgot-password', 'Restablecer su contraseña');
  await context.close();
});

// Dark mode (the user's preference): every screen a teacher and a student use is scanned by axe
// with the dark theme on (helpers.ts: WCAG AA contrast among the rest), the progress grid and the
// charts take the dark theme's colours, and the charts' labels are at least 12 px.
import { expect, type Page } from '@playwright/test';
import { test } from './helpers';
import { classroom, darkMode, studentOf, submitted } from './journey';

/** The smallest label of the page's charts, in CSS pixels as drawn (the SVG's scale included). */
async function smallestChartLabel(page: Page): Promise<number> {
  return page.evaluate(() => {
    const sizes = Array.from(document.querySelectorAll('figure svg[role="img"] text')).map((text) => {
      const svg = text.closest('svg')!;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return parseFloat(getComputedStyle(text).fontSize) * scale;
    });
    return sizes.length ? Math.min(...sizes) : 0;
  });
}

/** Relative luminance (WCAG) of a CSS rgb()/rgba() colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

test('when dark mode is on, then the teacher and student screens pass axe, and the grid and the charts are themed with labels of 12 px or more', async ({
  browser,
}) => {
  const c = await classroom(browser);
  const { page: student } = await studentOf(browser, c.cls.joinCode);
  const resultId = await submitted(student, c, 2);
  const { teacher } = c;
  await darkMode(teacher);

  for (const path of ['/', '/classes', '/assessments', `/assessment-preview/${c.assessment.id}`, '/students']) {
    await teacher.goto(path);
    await expect(teacher.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  await teacher.getByRole('tab', { name: 'By Class' }).click();

  // The grid's coloured cell: a dark background with light text, not the light theme's pastel.
  await teacher.goto(`/class/${c.cls.id}`);
  const cell = teacher.getByRole('region', { name: 'Class Results' }).getByRole('cell', { name: /50%/ });
  await expect(cell).toBeVisible();
  const colours = await cell.evaluate((el) => {
    const style = getComputedStyle(el);
    // Bootstrap paints a table cell's colour as an inset box shadow over its background.
    const shadow = style.boxShadow.match(/rgba?\([^)]*\)/)?.[0];
    return { background: shadow && !/, 0\)$/.test(shadow) ? shadow : style.backgroundColor, text: style.color };
  });
  expect(luminance(colours.background), `grid cell background ${colours.background}`).toBeLessThan(0.1);
  expect(luminance(colours.text), `grid cell text ${colours.text}`).toBeGreaterThan(0.3);

  for (const path of [`/assessment-results/${c.assessment.id}`, '/reports']) {
    await teacher.goto(path);
    await expect(teacher.locator('figure svg[role="img"]').first()).toBeVisible();
    expect(await smallestChartLabel(teacher), `chart labels on ${path}`).toBeGreaterThanOrEqual(12);
    // The bars take the dark theme's lighter shades (theme.css), e.g. Below Standard's #ea868f.
    const fills = await teacher
      .locator('figure svg[role="img"] rect')
      .evaluateAll((rects) => rects.map((r) => getComputedStyle(r).fill));
    expect(fills.length).toBeGreaterThan(0);
    for (const fill of fills) expect(luminance(fill), `bar ${fill}`).toBeGreaterThan(0.15);
  }
  // Narrow (a phone): still 12 px (and the wide tables scroll in keyboard-reachable regions: axe).
  await teacher.setViewportSize({ width: 390, height: 800 });
  for (const path of ['/reports', `/assessment-results/${c.assessment.id}`]) {
    await teacher.goto(path);
    await expect(teacher.locator('figure svg[role="img"]').first()).toBeVisible();
    expect(await smallestChartLabel(teacher), `chart labels on a phone, ${path}`).toBeGreaterThanOrEqual(12);
  }

  await darkMode(student);
  for (const path of ['/', '/join-class', '/browse-classes', `/assessment/${c.assessment.id}`]) {
    await student.goto(path);
    await expect(student.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  await student.goto(`/support-content/${resultId}`);
  await expect(student.getByRole('heading', { level: 1 })).toBeVisible();
});

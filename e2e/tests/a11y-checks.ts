// Checks of WCAG 2.2 AA that axe does not make (#32 item 3), for the keyboard-only journeys
// (keyboard.spec.ts): the focus reached by Tab and shown, targets of at least 24 px, no motion when
// the user asks for less, no text in images, and what a screen reader is told (live regions, the
// focused control's name and description). Each test names the success criteria it shows in its
// annotations (`wcag`), which scripts/vpat.mjs turns into the conformance report.
import { expect, type Locator, type Page } from '@playwright/test';

/** The annotations of a test for the criteria it shows: `{ annotation: wcag('2.1.1', '2.4.7') }`. */
export function wcag(...criteria: string[]): { type: string; description: string }[] {
  return criteria.map((description) => ({ type: 'wcag', description }));
}

const BROWSER_UI = '(nothing: the body)';

/** What the focused element is, for a failure message (tag, role, name). */
async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '(nothing: the body)';
    const name =
      el.getAttribute('aria-label') ?? (el as HTMLElement).innerText?.trim().slice(0, 40) ?? el.getAttribute('name');
    return `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> ${name ?? ''}`;
  });
}

/** WCAG 2.4.7: the focused element shows it (an outline or a box shadow), and is not the body. */
export async function expectFocusVisible(page: Page): Promise<void> {
  const problem = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return 'the focus is on nothing (the body)';
    const shown = (e: Element) => {
      const s = getComputedStyle(e);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
      return outline || (s.boxShadow !== 'none' && s.boxShadow !== '');
    };
    // A control drawn by its wrapper (a switch, a label styled as the button) shows it there.
    if (shown(el) || (el.parentElement && el.matches(':focus-visible') && shown(el.parentElement))) return null;
    return `no visible focus indicator on <${el.tagName.toLowerCase()}> ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`;
  });
  expect(problem, 'visible focus (WCAG 2.4.7)').toBeNull();
}

/**
 * WCAG 2.4.11 (Focus Not Obscured, Minimum): the focused control is not entirely hidden by the
 * page's own content (a sticky bar, a toast): some point of it (its centre or near a corner) is
 * the top element there. A control drawn by its label (a visually hidden radio) is judged by it.
 */
export async function expectFocusNotObscured(page: Page): Promise<void> {
  const problem = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    let boxes = [el];
    const r = el.getBoundingClientRect();
    if ((r.width < 2 || r.height < 2) && el instanceof HTMLInputElement) boxes = [...(el.labels ?? [])];
    for (const box of boxes) {
      const b = box.getBoundingClientRect();
      const inset = (n: number) => Math.min(3, n / 2);
      const points = [
        [b.left + b.width / 2, b.top + b.height / 2],
        [b.left + inset(b.width), b.top + inset(b.height)],
        [b.right - inset(b.width), b.top + inset(b.height)],
        [b.left + inset(b.width), b.bottom - inset(b.height)],
        [b.right - inset(b.width), b.bottom - inset(b.height)],
      ];
      for (const [x, y] of points) {
        const top = document.elementFromPoint(x!, y!);
        if (top && (box.contains(top) || top.contains(box) || (top instanceof HTMLLabelElement && top.control === el)))
          return null;
      }
    }
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    const b = el.getBoundingClientRect();
    const over = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    const what = over
      ? `<${over.tagName.toLowerCase()} class="${String(over.className).slice(0, 60)}">`
      : 'nothing (outside the window)';
    return `<${el.tagName.toLowerCase()}> "${name}" at ${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}×${Math.round(b.height)} is entirely hidden, under ${what}`;
  });
  expect(problem, 'focus not obscured (WCAG 2.4.11)').toBeNull();
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, at most `max` times; every
 * stop on the way must show its focus, not be hidden under other content, and not change the page
 * (WCAG 3.2.1, On Focus: the URL stays). Fails naming the stops when the target is not reached.
 * Returns how many presses it took.
 */
export async function tabTo(page: Page, target: Locator, { max = 40, back = false } = {}): Promise<number> {
  const stops: string[] = [];
  const url = page.url();
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    expect(page.url(), 'a control that takes the focus changes no page (WCAG 3.2.1)').toBe(url);
    const stop = await describeFocus(page);
    stops.push(stop);
    // Past the last control the focus leaves the document for the browser's own controls; the next
    // Tab comes back to the first (the skip link).
    if (stop === BROWSER_UI) continue;
    await expectFocusVisible(page);
    await expectFocusNotObscured(page);
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return i;
  }
  throw new Error(`${String(target)} not reached in ${max} presses of Tab; the focus went: ${stops.join(' → ')}`);
}

/** Tab to `target` and press `key` (Enter by default) on it. */
export async function activate(page: Page, target: Locator, key = 'Enter', options?: { max?: number }): Promise<void> {
  await tabTo(page, target, options);
  await page.keyboard.press(key);
}

/** The focus is inside `container` (a dialog that opened), and visible. */
export async function expectFocusWithin(page: Page, container: Locator): Promise<void> {
  await expect
    .poll(
      async () =>
        (await container.evaluate((el) => el.contains(document.activeElement)).catch(() => false))
          ? 'inside'
          : `outside, on ${await describeFocus(page)}`,
      { message: 'the focus is inside the dialog' },
    )
    .toBe('inside');
}

/**
 * WCAG 4.1.3: `text` reaches a screen reader without the focus moving, i.e. it is in a live region
 * (aria-live polite/assertive, role status, alert or log) on the page.
 */
export async function expectAnnounced(page: Page, text: string | RegExp): Promise<void> {
  const source = typeof text === 'string' ? { s: text } : { re: text.source, flags: text.flags };
  await expect
    .poll(
      () =>
        page.evaluate((src) => {
          const matches = (t: string) => ('s' in src ? t.includes(src.s!) : new RegExp(src.re!, src.flags).test(t));
          const live = document.querySelectorAll(
            '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]',
          );
          return [...live].some((region) => matches(region.textContent ?? ''));
        }, source),
      { message: `"${String(text)}" in a live region (WCAG 4.1.3)` },
    )
    .toBe(true);
}

/**
 * WCAG 3.3.1: after a submit with a mistake, the focus is on a field marked invalid whose
 * description (read with it) says what is wrong; or the message is in a live region.
 */
export async function expectErrorAnnounced(page: Page, message: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((msg) => {
          const el = document.activeElement;
          const described = (el?.getAttribute('aria-describedby') ?? '')
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ');
          if (el?.getAttribute('aria-invalid') === 'true' && described.includes(msg)) return true;
          const live = document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]');
          return [...live].some((region) => (region.textContent ?? '').includes(msg));
        }, message),
      { message: `the error "${message}" is read (focused invalid field described by it, or a live region)` },
    )
    .toBe(true);
}

/**
 * WCAG 2.5.8 (Target Size, Minimum): every visible pointer target of the page is at least 24×24
 * CSS px, or spaced (a 24 px circle on its centre touches no other target), or a link inside a
 * sentence. Returns nothing; fails listing the targets that are neither.
 */
export async function expectTargetSizes(page: Page): Promise<void> {
  const small = await page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="checkbox"], [role="radio"], [role="switch"]';
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[aria-hidden="true"], [inert]');
    };
    const targets = [...document.querySelectorAll(selector)].filter(visible);
    const rects = new Map(targets.map((el) => [el, el.getBoundingClientRect()]));
    // A link in a run of text (a sentence, a paragraph) is exempt ("Inline").
    const inline = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const parent = el.parentElement;
      const own = (parent?.textContent ?? '').replace(el.textContent ?? '', '').trim();
      return own.length > 0;
    };
    const distance = (x: number, y: number, r: DOMRect) => {
      const dx = Math.max(r.left - x, 0, x - r.right);
      const dy = Math.max(r.top - y, 0, y - r.bottom);
      return Math.hypot(dx, dy);
    };
    // Visually hidden controls drawn by a label (a button group's radios) take the label's box.
    const related = (a: Element, b: Element) =>
      a.contains(b) ||
      b.contains(a) ||
      (a instanceof HTMLInputElement && [...(a.labels ?? [])].some((l) => l.contains(b))) ||
      (b instanceof HTMLInputElement && [...(b.labels ?? [])].some((l) => l.contains(a)));
    const problems: string[] = [];
    for (const el of targets) {
      const r = rects.get(el)!;
      if (r.width >= 24 && r.height >= 24) continue;
      if (inline(el)) continue;
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const crowded = targets.some((other) => {
        if (other === el || related(el, other)) return false;
        const o = rects.get(other)!;
        if (o.width >= 24 && o.height >= 24) return distance(cx, cy, o) < 12;
        // Another undersized target: their circles must not overlap.
        return Math.hypot(cx - (o.left + o.width / 2), cy - (o.top + o.height / 2)) < 24;
      });
      if (crowded) {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
        problems.push(`<${el.tagName.toLowerCase()}> "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return problems;
  });
  expect(small, 'targets under 24×24 px with a neighbour within 12 px of their centre (WCAG 2.5.8)').toEqual([]);
}

/**
 * WCAG 2.3.3 (and 2.2.2): with `prefers-reduced-motion: reduce` no element of the page runs a CSS
 * animation or a transition (the page is emulated with reduced motion by the caller).
 */
export async function expectNoMotion(page: Page): Promise<void> {
  const moving = await page.evaluate(() => {
    const seconds = (list: string) => list.split(',').map((t) => parseFloat(t) * (t.trim().endsWith('ms') ? 0.001 : 1));
    const found: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const animated =
        s.animationName !== 'none' &&
        s.animationPlayState !== 'paused' &&
        seconds(s.animationDuration).some((d) => d > 0);
      const transitioned =
        s.transitionProperty !== 'none' &&
        s.transitionProperty !== '' &&
        seconds(s.transitionDuration).some((d) => d > 0);
      if (animated || transitioned) {
        const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 3).join('.') : '';
        found.push(
          `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> ${animated ? `animation ${s.animationName} ${s.animationDuration}` : `transition ${s.transitionProperty} ${s.transitionDuration}`}`,
        );
      }
    }
    return found.slice(0, 10);
  });
  expect(moving, 'animations or transitions with prefers-reduced-motion: reduce (WCAG 2.3.3)').toEqual([]);
}

/**
 * WCAG 1.4.5 (Images of Text) and 1.1.1: the page draws no raster image (an <img>, <input
 * type=image> or CSS background of png/jpeg/gif/webp) but for ones with a text alternative that
 * are not text; the app's images are SVG icons and charts whose words are real text.
 */
export async function expectNoImagesOfText(page: Page): Promise<void> {
  const images = await page.evaluate(() => {
    const raster = /\.(png|jpe?g|gif|webp|bmp)(\?|$)|^data:image\/(png|jpe?g|gif|webp)/i;
    const found: string[] = [];
    for (const img of document.querySelectorAll('img, input[type="image"]')) {
      const src = img.getAttribute('src') ?? '';
      if (raster.test(src))
        found.push(`<${img.tagName.toLowerCase()} src="${src.slice(0, 60)}" alt="${img.getAttribute('alt') ?? ''}">`);
      else if (img.tagName === 'IMG' && !img.hasAttribute('alt'))
        found.push(`<img src="${src.slice(0, 60)}"> without alt`);
    }
    for (const el of document.querySelectorAll('*')) {
      const bg = getComputedStyle(el).backgroundImage;
      if (bg && bg !== 'none' && /url\(/.test(bg) && raster.test(bg.replace(/^url\(["']?|["']?\)$/g, '')))
        found.push(`background ${bg.slice(0, 60)}`);
    }
    return found;
  });
  expect(images, 'raster images (text must be text, WCAG 1.4.5)').toEqual([]);
}

/**
 * WCAG 1.4.10 (Reflow): at 320 CSS px wide (1280 px at 400 % zoom) the page scrolls in one
 * direction only: nothing is wider than the window but data tables, which may scroll in their own
 * box. The viewport is put back afterwards.
 */
export async function expectReflow(page: Page): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 640 });
  try {
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const wide = document.documentElement.scrollWidth;
            if (wide <= window.innerWidth + 1) return [];
            // Name what sticks out (outside a table's own scroll box).
            return [...document.querySelectorAll('body *')]
              .filter(
                (el) =>
                  el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('table, .table-responsive'),
              )
              .slice(0, 5)
              .map(
                (el) =>
                  `<${el.tagName.toLowerCase()} class="${String(el.className).slice(0, 50)}"> ${Math.round(el.getBoundingClientRect().right)} px`,
              );
          }),
        { message: 'content wider than 320 px (WCAG 1.4.10)', timeout: 3_000 },
      )
      .toEqual([]);
  } finally {
    if (size) await page.setViewportSize(size);
  }
}

/** The page-level checks of a screen the journey reached: targets, motion, images of text. */
export async function checkScreen(page: Page): Promise<void> {
  await page
    .locator('.spinner-border:visible, [aria-busy="true"]:visible')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  await expectTargetSizes(page);
  await expectNoMotion(page);
  await expectNoImagesOfText(page);
}

// A modal dialog keeps the keyboard focus (WCAG 2.4.3, 2.1.2 with Escape to leave): react-bootstrap's
// Modal brings the focus back when it lands on the page behind, but Tab on the dialog's last control
// (Shift+Tab on its first) takes it out of the document, to the browser's own controls. One
// listener for every modal of the app wraps it round instead, as Bootstrap's own modal does. And when
// the focused control leaves the page (a dialog closed, or the dashboard's welcome card and its
// Create Class button replaced once the first class exists), the focus would be left on nothing: it
// goes to the main content instead.
import { useEffect } from 'react';

const TABBABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function tabbables(dialog: Element): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
  );
}

/** The last dialog opened (the one on top), if any. */
function openDialog(): Element | undefined {
  const dialogs = document.querySelectorAll(
    '[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]',
  );
  return dialogs[dialogs.length - 1];
}

export function wrapTab(event: KeyboardEvent): void {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const dialog = openDialog();
  if (!dialog) return;
  const items = tabbables(dialog);
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !active || !dialog.contains(active);
  if (event.shiftKey ? active === first || active === dialog : active === last) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  } else if (outside) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * After a change of the page: when the focused element was removed with its part of the page (a
 * dialog closed, the card holding the button replaced), the focus is on nothing; it goes to the main
 * content, where the next Tab starts and a screen reader reads from.
 */
export function refocusIfLost(lastFocused: Element | null): void {
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return;
  if (!lastFocused || lastFocused.isConnected || openDialog()) return;
  document.getElementById('main')?.focus({ preventScroll: true });
}

export function useModalTabWrap(): void {
  useEffect(() => {
    let lastFocused: Element | null = null;
    const remember = (event: FocusEvent) => {
      lastFocused = event.target instanceof Element ? event.target : null;
    };
    document.addEventListener('keydown', wrapTab);
    document.addEventListener('focusin', remember);
    const observer = new MutationObserver(() => refocusIfLost(lastFocused));
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('keydown', wrapTab);
      document.removeEventListener('focusin', remember);
      observer.disconnect();
    };
  }, []);
}

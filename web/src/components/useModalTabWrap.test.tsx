import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { refocusIfLost, wrapTab } from './useModalTabWrap';

function tab(shiftKey = false): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, cancelable: true });
  wrapTab(event);
  return event;
}

// jsdom lays nothing out: every element has client rects only if we say so.
function laidOut() {
  for (const el of document.querySelectorAll<HTMLElement>('button, input'))
    el.getClientRects = () => [{ width: 10, height: 10 }] as unknown as DOMRectList;
}

describe('useModalTabWrap', () => {
  it('when Tab is pressed on the last control of an open modal, then the focus wraps to its first; Shift+Tab on the first, to its last', () => {
    render(
      <>
        <button type="button">Behind</button>
        <div role="dialog" aria-modal="true">
          <button type="button">First</button>
          <input aria-label="Middle" />
          <button type="button">Last</button>
        </div>
      </>,
    );
    laidOut();
    screen.getByRole('button', { name: 'Last' }).focus();
    expect(tab().defaultPrevented).toBe(true);
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    expect(tab(true).defaultPrevented).toBe(true);
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
    // In the middle, the browser moves the focus itself.
    screen.getByRole('textbox', { name: 'Middle' }).focus();
    expect(tab().defaultPrevented).toBe(false);
  });

  it('when no modal is open, then Tab is left to the browser', () => {
    render(<button type="button">Alone</button>);
    laidOut();
    screen.getByRole('button', { name: 'Alone' }).focus();
    expect(tab().defaultPrevented).toBe(false);
  });

  it('when the focused control was removed and the focus is on nothing, then it goes to the main content', () => {
    render(
      <main id="main" tabIndex={-1}>
        <h1>Page</h1>
      </main>,
    );
    const gone = document.createElement('button');
    (document.activeElement as HTMLElement | null)?.blur();
    refocusIfLost(gone);
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('when the focus is on a control, or the last one is still there, then it stays put', () => {
    render(
      <main id="main" tabIndex={-1}>
        <button type="button">Here</button>
      </main>,
    );
    const here = screen.getByRole('button', { name: 'Here' });
    here.focus();
    refocusIfLost(document.createElement('button'));
    expect(here).toHaveFocus();
    here.blur();
    refocusIfLost(here);
    expect(document.body).toHaveFocus();
  });
});

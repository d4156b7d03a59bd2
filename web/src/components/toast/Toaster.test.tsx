import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/test-utils';
import { showToast } from './toastSlice';

describe('Toaster', () => {
  it('when a second toast is shown, then it replaces the first (one at a time)', () => {
    const { store } = renderWithProviders(<div />);
    act(() => {
      store.dispatch(showToast({ title: 'First', description: 'one' }));
    });
    expect(screen.getByText('First')).toBeInTheDocument();
    act(() => {
      store.dispatch(
        showToast({ title: 'Update Failed', description: 'Failed to update settings', variant: 'destructive' }),
      );
    });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Update Failed');
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to update settings');
    expect(screen.getByRole('alert')).toHaveClass('bg-danger');
  });
});

describe('Toaster timing', () => {
  it('when 5000 ms pass, then the toast is gone', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      const { store } = renderWithProviders(<div />);
      act(() => {
        store.dispatch(showToast({ title: 'Settings Updated' }));
      });
      act(() => {
        vi.advanceTimersByTime(4900);
      });
      expect(store.getState().toast.current?.title).toBe('Settings Updated');
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(store.getState().toast.current).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Toaster placement', () => {
  it('when the focused control lies under the toast, then the toast moves to the top corner (WCAG 2.4.11)', () => {
    const rect = (top: number) =>
      ({ left: 900, right: 1000, top, bottom: top + 40, width: 100, height: 40 }) as DOMRect;
    const { store } = renderWithProviders(<button type="button">Next</button>);
    const next = screen.getByRole('button', { name: 'Next' });
    next.getBoundingClientRect = () => rect(650);
    next.focus();
    act(() => {
      store.dispatch(showToast({ title: 'Saved' }));
    });
    const toast = screen.getByTestId('toast');
    // jsdom lays nothing out: the toast is where its corner class says.
    toast.getBoundingClientRect = () => rect(toast.closest('.top-0') ? 20 : 640);
    act(() => {
      next.blur();
      next.focus();
    });
    expect(toast.closest('.toast-container')).toHaveClass('top-0');
  });
});

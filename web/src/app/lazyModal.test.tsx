import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyModal } from './lazyModal';

function Dialog({ show, title }: { show: boolean; title: string }) {
  return show ? <div role="dialog" aria-label={title} /> : <p>closed {title}</p>;
}

describe('lazyModal', () => {
  it('when the modal is never shown, then its code is never loaded', () => {
    const load = vi.fn(async () => Dialog);
    const Lazy = lazyModal(load);
    render(<Lazy show={false} title="Create" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('when the modal is shown, then it loads and opens, and stays mounted once closed', async () => {
    const load = vi.fn(async () => Dialog);
    const Lazy = lazyModal(load);
    const { rerender } = render(<Lazy show={false} title="Create" />);
    rerender(<Lazy show title="Create" />);
    expect(await screen.findByRole('dialog', { name: 'Create' })).toBeInTheDocument();
    rerender(<Lazy show={false} title="Create" />);
    expect(screen.getByText('closed Create')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when the modal says what shows it, then that decides when it loads', async () => {
    const Edit = ({ item }: { item: string | null }) => <div role="dialog" aria-label={item ?? ''} />;
    const Lazy = lazyModal(
      async () => Edit,
      (props) => props.item !== null,
    );
    const { rerender } = render(<Lazy item={null} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    rerender(<Lazy item="Math" />);
    expect(await screen.findByRole('dialog', { name: 'Math' })).toBeInTheDocument();
  });
});

import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { MAX_STANDARDS, StandardsPicker } from './StandardsPicker';
import type { StandardItem, StandardRef } from './standardsApi';

const FRAMEWORK = '44444444-4444-4444-8444-444444444444';
const item = (code: string, statement: string): StandardItem => ({
  identifier: `id-${code}`,
  code,
  statement,
  uri: `https://case.example.org/uri/id-${code}`,
  frameworkId: FRAMEWORK,
  frameworkTitle: 'Test Mathematics',
  educationLevels: ['06'],
});
const CATALOGUE = [
  item('6.RP.A.1', 'Understand the concept of a ratio.'),
  item('6.RP.A.2', 'Understand the concept of a unit rate.'),
  item('6.NS.A.1', 'Interpret and compute quotients of fractions.'),
];

/** The search as the server answers it: code prefix or words of the statement. */
function stubSearch() {
  const mock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    if (url.pathname !== '/api/standards/search') return jsonResponse(404, { message: 'Not found' });
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    return jsonResponse(
      200,
      CATALOGUE.filter((s) => s.code.toLowerCase().startsWith(q) || s.statement.toLowerCase().includes(q)),
    );
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

function Harness({ initial = [] as StandardRef[] }) {
  const [value, setValue] = useState<StandardRef[]>(initial);
  return (
    <>
      <StandardsPicker id="picker" value={value} onChange={setValue} />
      <output data-testid="sent">{value.map((s) => s.identifier).join(',')}</output>
    </>
  );
}

describe('StandardsPicker', () => {
  it('when a code prefix is typed, then the matching standards are offered with their statements', async () => {
    stubSearch();
    const { user } = renderWithProviders(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'Standards' }), '6.rp');
    const list = await screen.findByRole('listbox');
    const options = await within(list).findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('6.RP.A.1 Understand the concept of a ratio.'),
      expect.stringContaining('6.RP.A.2 Understand the concept of a unit rate.'),
    ]);
  });

  it('when words of a statement are typed, then the standard is found by them', async () => {
    stubSearch();
    const { user } = renderWithProviders(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'Standards' }), 'quotients');
    expect(await screen.findByRole('option', { name: /6\.NS\.A\.1/ })).toBeInTheDocument();
  });

  it('when ↓ and Enter are pressed, then the second standard is chosen as a chip and the box empties', async () => {
    stubSearch();
    const { user } = renderWithProviders(<Harness />);
    const box = screen.getByRole('combobox', { name: 'Standards' });
    await user.type(box, '6.RP');
    await screen.findAllByRole('option');
    expect(box).toHaveAttribute('aria-activedescendant', 'picker-option-0');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', 'picker-option-1');
    expect(screen.getByRole('option', { name: /6\.RP\.A\.2/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('sent')).toHaveTextContent('id-6.RP.A.2');
    const chips = screen.getByRole('list', { name: 'Chosen standards' });
    expect(within(chips).getByText('6.RP.A.2')).toBeInTheDocument();
    expect(within(chips).getByTestId('standard-chip')).toHaveAttribute(
      'title',
      'Understand the concept of a unit rate.',
    );
    expect(box).toHaveValue('');
  });

  it('when a chosen standard is searched again, then it is not offered twice; its chip removes it', async () => {
    stubSearch();
    const { user } = renderWithProviders(
      <Harness initial={[{ identifier: 'id-6.RP.A.1', code: '6.RP.A.1', statement: 'ratio' }]} />,
    );
    await user.type(screen.getByRole('combobox', { name: 'Standards' }), '6.RP');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]).toHaveTextContent('6.RP.A.2');
    await user.click(screen.getByRole('button', { name: 'Remove 6.RP.A.1' }));
    expect(screen.getByTestId('sent')).toHaveTextContent('');
  });

  it('when nothing matches, then it says so', async () => {
    stubSearch();
    const { user } = renderWithProviders(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'Standards' }), 'zzz');
    expect(await screen.findByText('No standards match')).toBeInTheDocument();
  });

  it('when the maximum is chosen, then the box is disabled and says why', async () => {
    stubSearch();
    const full = Array.from({ length: MAX_STANDARDS }, (_, i) => ({ identifier: `s${i}`, code: `C.${i}` }));
    renderWithProviders(<Harness initial={full} />);
    expect(screen.getByRole('combobox', { name: 'Standards' })).toBeDisabled();
    expect(screen.getByText(`At most ${MAX_STANDARDS} standards: remove one to choose another.`)).toBeInTheDocument();
  });
});

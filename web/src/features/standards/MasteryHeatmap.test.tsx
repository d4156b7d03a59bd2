import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { ClassMasterySection } from './ClassMasterySection';
import { MasteryHeatmap } from './MasteryHeatmap';
import type { ClassMasteryRow } from './standardsApi';

const CLASS_ID = '11111111-1111-4111-8111-111111111111';
const ROWS: ClassMasteryRow[] = [
  {
    studentId: 's1',
    studentName: 'Ana Silva',
    standards: [
      { identifier: 'b', code: '6.RP.A.2', level: 'above', evidenceCount: 3, score: 93.4 },
      { identifier: 'a', code: '6.RP.A.1', level: 'below', evidenceCount: 1, score: 50 },
    ],
  },
  {
    studentId: 's2',
    studentName: 'Ben Okafor',
    standards: [{ identifier: 'a', code: '6.RP.A.1', level: 'at', evidenceCount: 2, score: 85 }],
  },
];

describe('MasteryHeatmap', () => {
  it('when students have evidence, then each cell shows its level colour, score and evidence count', () => {
    renderWithProviders(<MasteryHeatmap rows={ROWS} />);
    const table = screen.getByRole('table', { name: 'Mastery by student and standard' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Student', '6.RP.A.1', '6.RP.A.2']);
    const ana = within(table).getByRole('row', { name: /Ana Silva/ });
    const [below, above] = within(ana).getAllByRole('cell');
    expect(below).toHaveAttribute('data-level', 'below');
    expect(below).toHaveClass('table-danger');
    expect(below).toHaveTextContent('50%, Below Standard1 answer');
    expect(above).toHaveClass('table-success');
    expect(above).toHaveTextContent('93%, Above Standard3 answers');
    const ben = within(table).getByRole('row', { name: /Ben Okafor/ });
    const [at, none] = within(ben).getAllByRole('cell');
    expect(at).toHaveClass('table-warning');
    expect(at).toHaveTextContent('85%, At Standard2 answers');
    expect(none).toHaveAttribute('data-level', 'none');
    expect(none).toHaveTextContent('No evidence');
  });

  it('when no student has aligned results, then the empty state shows instead of a table', () => {
    renderWithProviders(<MasteryHeatmap rows={[{ studentId: 's1', studentName: 'Ana Silva', standards: [] }]} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByTestId('mastery-empty')).toHaveTextContent('No results on questions aligned to standards yet.');
  });

  it('when the class has mastery, then the section links its CSV export', async () => {
    stubFetch({ [`GET /api/classes/${CLASS_ID}/mastery`]: () => jsonResponse(200, ROWS) });
    renderWithProviders(<ClassMasterySection classId={CLASS_ID} />);
    expect(await screen.findByRole('link', { name: 'Export mastery CSV' })).toHaveAttribute(
      'href',
      `/api/classes/${CLASS_ID}/mastery/export`,
    );
  });

  it('when the mastery cannot be read, then the server message shows', async () => {
    stubFetch({
      [`GET /api/classes/${CLASS_ID}/mastery`]: () =>
        jsonResponse(403, { message: 'Not your class', code: 'forbidden' }),
    });
    renderWithProviders(<ClassMasterySection classId={CLASS_ID} />);
    expect(await screen.findByText('Not your class')).toBeInTheDocument();
  });
});

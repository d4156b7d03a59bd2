import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { ClassResultsPanel } from './ClassResultsPanel';
import type { ClassGrid } from './resultsApi';

const grid: ClassGrid = {
  classId: 'c1',
  className: 'Biology',
  students: [
    { id: 's1', firstName: 'Ada', lastName: 'Byron' },
    { id: 's2', firstName: 'Alan', lastName: 'Turing' },
  ],
  assessments: [
    { id: 'a1', title: 'Cells', createdAt: '2024-03-05T10:00:00.000Z' },
    { id: 'a2', title: 'Genetics', createdAt: '2024-03-06T10:00:00.000Z' },
  ],
  cells: [
    {
      studentId: 's1',
      assessmentId: 'a1',
      resultId: 'r1',
      percentage: 84.6,
      performanceLevel: 'at',
      originalLevel: 'at',
      raisedBy: null,
      raisedAttempt: null,
    },
    {
      studentId: 's1',
      assessmentId: 'a2',
      resultId: 'r2',
      percentage: 92.4,
      performanceLevel: 'above',
      originalLevel: 'above',
      raisedBy: null,
      raisedAttempt: null,
    },
    {
      studentId: 's2',
      assessmentId: 'a1',
      resultId: 'r3',
      percentage: 40,
      performanceLevel: 'below',
      originalLevel: 'below',
      raisedBy: null,
      raisedAttempt: null,
    },
  ],
  inProgress: [],
};

function renderPanel() {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<ClassResultsPanel classId="c1" />} />
      <Route path="/assessment-preview/:id" element={<p>Preview page</p>} />
    </Routes>,
  );
}

describe('StudentProgressGrid', () => {
  it('when the class has results, then each row shows the name, rounded percentages and dashes, with the level as text', async () => {
    stubFetch({ 'GET /api/classes/c1/grid': () => jsonResponse(200, grid) });
    renderPanel();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Student', 'Cells', 'Genetics']);
    const [, ada, alan] = within(table).getAllByRole('row');
    expect(within(ada!).getByRole('rowheader')).toHaveTextContent('Ada Byron');
    const adaCells = within(ada!).getAllByRole('cell');
    expect(adaCells.map((c) => c.textContent)).toEqual(['85%, At Standard', '92%, Above Standard']);
    expect(adaCells[0]).toHaveClass('table-warning');
    expect(adaCells[1]).toHaveClass('table-success');

    expect(within(alan!).getByRole('rowheader')).toHaveTextContent('Alan Turing');
    const alanCells = within(alan!).getAllByRole('cell');
    expect(alanCells[0]).toHaveTextContent('40%, Below Standard');
    expect(alanCells[0]).toHaveClass('table-danger');
    expect(within(alanCells[1]!).getByText('—')).toBeInTheDocument();
    expect(alanCells[1]).toHaveTextContent('No result');
    expect(alanCells[1]).toHaveClass('table-secondary');

    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual([
      'At Standard',
      'Above Standard',
      'Below Standard',
      '↑Raised by practice (the score is the original one)',
    ]);
  });

  it('when practice raised a 50 % and a 60 % was not raised, then the 50 % is coloured at standard with ↑ and the 60 % below, by level not percent', async () => {
    const raisedGrid = {
      ...grid,
      cells: [
        {
          studentId: 's1',
          assessmentId: 'a1',
          resultId: 'r1',
          percentage: 50,
          performanceLevel: 'at',
          originalLevel: 'below',
          raisedBy: 'practice',
          raisedAttempt: 2,
        },
        {
          studentId: 's2',
          assessmentId: 'a1',
          resultId: 'r3',
          percentage: 60,
          performanceLevel: 'below',
          originalLevel: 'below',
          raisedBy: null,
          raisedAttempt: null,
        },
      ],
    };
    stubFetch({ 'GET /api/classes/c1/grid': () => jsonResponse(200, raisedGrid) });
    renderPanel();
    const table = await screen.findByRole('table');
    const [, ada, alan] = within(table).getAllByRole('row');
    const raised = within(ada!).getAllByRole('cell')[0]!;
    expect(raised).toHaveTextContent('50%↑, At Standard, raised to At Standard by practice (2nd try)');
    expect(raised).toHaveClass('table-warning');
    expect(raised).toHaveAttribute('data-raised', 'practice');
    expect(raised).toHaveAttribute('title', 'At Standard, raised to At Standard by practice (2nd try)');
    const plain = within(alan!).getAllByRole('cell')[0]!;
    expect(plain).toHaveTextContent('60%, Below Standard');
    expect(plain).toHaveClass('table-danger');
    expect(plain).not.toHaveAttribute('data-raised');
  });

  it('when a student has started an assessment and not submitted, then the cell says In progress with the count, not No result', async () => {
    stubFetch({
      'GET /api/classes/c1/grid': () =>
        jsonResponse(200, {
          ...grid,
          inProgress: [{ studentId: 's2', assessmentId: 'a2', answered: 4, questionCount: 8 }],
        }),
    });
    renderPanel();
    const table = await screen.findByRole('table');
    const [, , alan] = within(table).getAllByRole('row');
    const alanCells = within(alan!).getAllByRole('cell');
    expect(alanCells[0]).toHaveTextContent('40%, Below Standard');
    expect(alanCells[1]).toHaveTextContent('In progress4 of 8 answered');
    expect(alanCells[1]).not.toHaveTextContent('No result');
    expect(alanCells[1]).toHaveAttribute('title', 'In progress: 4 of 8 answered');
  });

  it('when the grid is drawn, then the first column is 200px and each assessment column 120px', async () => {
    stubFetch({ 'GET /api/classes/c1/grid': () => jsonResponse(200, grid) });
    renderPanel();
    const [student, cells] = (await screen.findAllByRole('columnheader')) as HTMLElement[];
    expect(student!.style.width).toBe('200px');
    expect(cells!.style.width).toBe('120px');
    expect(screen.getByRole('table').style.width).toBe('440px');
  });

  it('when an assessment header is clicked, then the assessment preview opens', async () => {
    stubFetch({ 'GET /api/classes/c1/grid': () => jsonResponse(200, grid) });
    const { user } = renderPanel();
    const header = await screen.findByRole('link', { name: 'Genetics' });
    expect(header).toHaveAttribute('href', '/assessment-preview/a2');
    await user.click(header);
    expect(await screen.findByText('Preview page')).toBeInTheDocument();
  });

  it('when a result cell is clicked, then nothing navigates', async () => {
    stubFetch({ 'GET /api/classes/c1/grid': () => jsonResponse(200, grid) });
    const { user } = renderPanel();
    await user.click(await screen.findByRole('cell', { name: '92%, Above Standard' }));
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.queryByText('Preview page')).not.toBeInTheDocument();
  });

  it('when the class has no students, then the empty text shows instead of a table', async () => {
    stubFetch({
      'GET /api/classes/c1/grid': () => jsonResponse(200, { ...grid, students: [], cells: [] }),
    });
    renderPanel();
    expect(await screen.findByText('No students in this class yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AssessmentPreviewPage } from './AssessmentPreviewPage';

const ASSESSMENT = {
  id: 'a1',
  classId: 'c1',
  title: 'Cells Quiz',
  description: '',
  topic: 'Cells',
  standard: '',
  dueDate: null,
  isActive: true,
  createdAt: '2026-03-05T10:00:00.000Z',
  className: 'Biology 7',
  questionCount: 0,
  status: 'draft',
  isAssigned: false,
  assignedTo: [],
  generationStatus: 'ready',
  generationProvider: 'text',
};

function HistoryState() {
  return <p data-testid="history-state">{JSON.stringify(useLocation().state)}</p>;
}

function renderPreview(state?: unknown) {
  stubFetch({
    'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, []),
  });
  return renderWithProviders(
    <Routes>
      <Route
        path="/assessment-preview/:id"
        element={
          <>
            <AssessmentPreviewPage />
            <HistoryState />
          </>
        }
      />
    </Routes>,
    { route: { pathname: '/assessment-preview/a1', state } },
  );
}

describe('AssessmentPreviewPage', () => {
  it('when opened right after creating the assessment, then the creation banner shows once and the history entry forgets it', async () => {
    renderPreview({ justCreated: true });
    expect(await screen.findByRole('heading', { name: 'Cells Quiz' })).toBeInTheDocument();
    expect(screen.getByTestId('created-banner')).toHaveTextContent(
      'Successfully Created with Questions Built from Your Text!',
    );
    // A reload reads the cleared entry: no banner then.
    await waitFor(() => expect(screen.getByTestId('history-state')).toHaveTextContent('null'));
    expect(screen.getByTestId('created-banner')).toBeInTheDocument();
  });

  it('when opened later (a link, a reload), then there is no creation banner', async () => {
    renderPreview();
    expect(await screen.findByRole('heading', { name: 'Cells Quiz' })).toBeInTheDocument();
    expect(screen.queryByTestId('created-banner')).not.toBeInTheDocument();
    expect(screen.queryByText(/Successfully Created/)).not.toBeInTheDocument();
    // One status word for a draft: no "Active" beside "Draft" (issue 25).
    expect(screen.getByTestId('lifecycle-status')).toHaveTextContent('Draft');
    expect(screen.queryByText('Active')).not.toBeInTheDocument();
  });
});

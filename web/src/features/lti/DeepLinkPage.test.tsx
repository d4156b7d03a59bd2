import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { browser, DeepLinkPage } from './DeepLinkPage';

const ID = '0b7e7b1e-3333-4b4b-8b8b-000000000031';
const BASE = `/api/lti/deep-linking/${ID}`;
const REQUEST = {
  id: ID,
  classId: '0b7e7b1e-3333-4b4b-8b8b-0000000000c1',
  platform: 'https://canvas.instructure.com',
  assessments: [
    { id: '0b7e7b1e-3333-4b4b-8b8b-0000000000a1', title: 'Forces & motion', totalPoints: 5.5, inLinkedClass: true },
    { id: '0b7e7b1e-3333-4b4b-8b8b-0000000000a2', title: 'Still generating', totalPoints: 0, inLinkedClass: false },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderPage = () =>
  renderWithProviders(
    <Routes>
      <Route path="/lti/deep-linking/:id" element={<DeepLinkPage />} />
    </Routes>,
    { route: `/lti/deep-linking/${ID}` },
  );

describe('DeepLinkPage', () => {
  it('when the teacher picks an assessment, then the server’s answer is posted to the LMS by the tool’s form page', async () => {
    const fetchMock = stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(200, REQUEST),
      [`POST ${BASE}/response`]: () => jsonResponse(200, { formUrl: `${BASE}/form` }),
    });
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    const { user } = renderPage();
    expect(await screen.findByText('Forces & motion')).toBeInTheDocument();
    expect(screen.getByText('5.5 points')).toBeInTheDocument();
    expect(screen.getByText('This course’s class')).toBeInTheDocument();
    // Not pickable without questions (no points for the gradebook).
    expect(screen.getByRole('button', { name: 'Add Still generating' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Create an assessment' })).toHaveAttribute('href', '/assessments');

    await user.click(screen.getByRole('button', { name: 'Add Forces & motion' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(`${BASE}/form`));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ assessmentId: REQUEST.assessments[0]!.id });
  });

  it('when the server refuses the pick, then its message is shown and the page stays', async () => {
    stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(200, REQUEST),
      [`POST ${BASE}/response`]: () =>
        jsonResponse(404, { code: 'assessment_not_found', message: 'Assessment not found', fields: {} }),
    });
    const go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Forces & motion' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Assessment not found');
    expect(go).not.toHaveBeenCalled();
  });

  it('when the request is unknown, expired or answered, then the teacher is told to start again from the LMS', async () => {
    stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(404, { code: 'lti_deep_link_request', message: 'gone', fields: { id: 'x' } }),
    });
    renderPage();
    expect(await screen.findByText(/unknown, has expired or was already answered/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add / })).not.toBeInTheDocument();
  });
});

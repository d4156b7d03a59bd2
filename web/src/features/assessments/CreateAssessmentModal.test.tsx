import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { CreateAssessmentModal } from './CreateAssessmentModal';

const CLASS_ID = '11111111-1111-4111-8111-111111111111';
const ASSESSMENT_ID = '22222222-2222-4222-8222-222222222222';

function job(status: string, extra: Record<string, unknown> = {}) {
  return {
    jobId: '33333333-3333-4333-8333-333333333333',
    assessmentId: ASSESSMENT_ID,
    status,
    provider: 'offline',
    attempts: 1,
    maxAttempts: 3,
    questionType: 'mixed',
    questionCount: 5,
    updatedAt: '2024-03-05T10:00:00.000Z',
    commonAssessmentId: null,
    shuffleQuestions: false,
    shuffleOptions: false,
    opensAt: null,
    closesAt: null,
    timeLimitSeconds: null,
    ...extra,
  };
}

/** The creation calls made (the form also reads the frameworks to choose its standard field). */
const creations = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.filter(([url, init]) => url === '/api/assessments' && init?.method === 'POST');

const FRAMEWORK = {
  id: '44444444-4444-4444-8444-444444444444',
  title: 'Test Mathematics',
  documentIdentifier: 'doc-1',
  creator: 'State',
  version: '1',
  uri: 'https://case.example.org/doc-1',
  subjects: ['Mathematics'],
  itemCount: 2,
  scope: 'district',
  importedAt: '2024-03-05T10:00:00.000Z',
  updatedAt: '2024-03-05T10:00:00.000Z',
  commonAssessmentId: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  opensAt: null,
  closesAt: null,
  timeLimitSeconds: null,
};

function renderModal(classId: string | undefined) {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<CreateAssessmentModal show classId={classId} onHide={() => undefined} />} />
      <Route path="/assessment-preview/:id" element={<p>Preview page</p>} />
    </Routes>,
  );
}

describe('CreateAssessmentModal', () => {
  it('when submitted empty, then the field messages show and nothing is sent', async () => {
    const fetch = stubFetch({});
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Number of questions')).toHaveValue(10);
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await within(dialog).findByText('Title is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Content to be assessed is required')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Number of questions'));
    await user.type(within(dialog).getByLabelText('Number of questions'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await within(dialog).findByText('Must have at least 1 question')).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`)).toEqual([
      'GET /api/standards/frameworks',
    ]);
  });

  it('when no class is chosen, then it fails with No class selected', async () => {
    stubFetch({ 'GET /api/classes': () => jsonResponse(200, [{ id: CLASS_ID, name: 'Biology' }]) });
    const { user } = renderModal(undefined);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Cells');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Cells are the unit of life.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await within(dialog).findByText('No class selected')).toBeInTheDocument();
  });

  it('when created, then the payload is sent, the job is followed and the preview opens', async () => {
    let polls = 0;
    const fetch = stubFetch({
      'POST /api/assessments': () => jsonResponse(201, { id: ASSESSMENT_ID, title: 'Cells', classId: CLASS_ID }),
      [`GET /api/assessments/${ASSESSMENT_ID}/generation`]: () => {
        polls += 1;
        return jsonResponse(200, job(polls < 2 ? 'running' : 'succeeded'));
      },
    });
    document.cookie = 'cp_csrf=token';
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Cells');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Cells are the unit of life.');
    await user.selectOptions(within(dialog).getByLabelText('Question type'), 'mixed');
    await user.clear(within(dialog).getByLabelText('Number of questions'));
    await user.type(within(dialog).getByLabelText('Number of questions'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));

    const post = fetch.mock.calls.find(([url, init]) => url === '/api/assessments' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      classId: CLASS_ID,
      title: 'Cells',
      contentToAssess: 'Cells are the unit of life.',
      questionType: 'mixed',
      numberOfQuestions: 5,
      description: '',
    });
    expect(await screen.findByText('Building questions from your text...')).toBeInTheDocument();
    expect(await screen.findByText('Preview page', undefined, { timeout: 4000 })).toBeInTheDocument();
    // Rules built them: no claim of AI.
    expect(
      screen.getByText('Assessment created successfully with questions built from your text.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/AI-generated/)).not.toBeInTheDocument();
  });

  it('when a model writes the questions, then the status says so and the toast is the spec’s AI sentence', async () => {
    let polls = 0;
    stubFetch({
      'POST /api/assessments': () => jsonResponse(201, { id: ASSESSMENT_ID, title: 'Cells', classId: CLASS_ID }),
      [`GET /api/assessments/${ASSESSMENT_ID}/generation`]: () => {
        polls += 1;
        return jsonResponse(
          200,
          job(polls < 2 ? 'running' : 'succeeded', { provider: 'openai', questionSource: 'model' }),
        );
      },
    });
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Cells');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Cells are the unit of life.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await screen.findByText('A model is writing the questions...')).toBeInTheDocument();
    expect(await screen.findByText('Preview page', undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByText('Assessment created successfully with AI-generated questions!')).toBeInTheDocument();
  });

  it('when topic and standard are given, then they are sent as their own short fields; too long is refused', async () => {
    const fetch = stubFetch({
      'POST /api/assessments': () => jsonResponse(201, { id: ASSESSMENT_ID, title: 'Cells', classId: CLASS_ID }),
      [`GET /api/assessments/${ASSESSMENT_ID}/generation`]: () => jsonResponse(200, job('running')),
    });
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Cells');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Cells are the unit of life.');
    await user.type(within(dialog).getByLabelText('Topic (optional)'), 'x'.repeat(121));
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await within(dialog).findByText('Topic must be at most 120 characters')).toBeInTheDocument();
    expect(creations(fetch)).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Topic (optional)'));
    await user.type(within(dialog).getByLabelText('Topic (optional)'), 'Cells');
    await user.type(within(dialog).getByLabelText('Standard (optional)'), 'NGSS MS-LS1-1');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    await waitFor(() => expect(creations(fetch)).toHaveLength(1));
    const post = fetch.mock.calls.find(([url, init]) => url === '/api/assessments' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      contentToAssess: 'Cells are the unit of life.',
      topic: 'Cells',
      standard: 'NGSS MS-LS1-1',
    });
  });

  it('when the tenant has frameworks, then a standard is picked from the catalogue and sent as standards', async () => {
    const fetch = stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, [FRAMEWORK]),
      'GET /api/standards/search?q=6.RP&limit=10': () =>
        jsonResponse(200, [
          {
            identifier: 'item-6-rp-a-1',
            code: '6.RP.A.1',
            statement: 'Understand the concept of a ratio.',
            uri: 'https://case.example.org/item-6-rp-a-1',
            frameworkId: FRAMEWORK.id,
            frameworkTitle: FRAMEWORK.title,
            educationLevels: ['06'],
          },
        ]),
      'POST /api/assessments': () => jsonResponse(201, { id: ASSESSMENT_ID, title: 'Ratios', classId: CLASS_ID }),
      [`GET /api/assessments/${ASSESSMENT_ID}/generation`]: () => jsonResponse(200, job('running')),
    });
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    const picker = await within(dialog).findByRole('combobox', { name: 'Standards' });
    expect(within(dialog).queryByLabelText('Standard (optional)')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Title'), 'Ratios');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'A ratio compares two quantities.');
    await user.type(picker, '6.RP');
    await within(dialog).findByRole('option', { name: /6\.RP\.A\.1/ });
    await user.keyboard('{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Remove 6.RP.A.1' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    await waitFor(() => expect(creations(fetch)).toHaveLength(1));
    const body = JSON.parse(String(creations(fetch)[0]?.[1]?.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ title: 'Ratios', standards: ['item-6-rp-a-1'] });
    expect(body).not.toHaveProperty('standard');
  });

  it('when the pasted lesson is Spanish, then the form says the generator reads English only; an English lesson quoting Spanish has no notice', async () => {
    stubFetch({});
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    const content = within(dialog).getByLabelText('Content to assess');
    await user.click(content);
    await user.paste(
      'El ciclo del agua es el movimiento continuo del agua en la Tierra. El sol calienta el agua de los océanos y se evapora. '.repeat(
        6,
      ),
    );
    expect(within(dialog).getByText(/reads English lesson text only/)).toBeInTheDocument();
    expect(content).toHaveAccessibleDescription(expect.stringContaining('reads English lesson text only'));
    await user.clear(content);
    await user.click(content);
    await user.paste(
      'The explorers named the river Rio Grande, which means the big river in Spanish. It flows from the mountains to the gulf. '.repeat(
        6,
      ),
    );
    expect(within(dialog).queryByText(/reads English lesson text only/)).not.toBeInTheDocument();
  });

  it('when the pasted text is short, then a hint asks for the lesson itself; a real lesson has none', async () => {
    stubFetch({});
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    const content = within(dialog).getByLabelText('Content to assess');
    await user.type(content, 'CCSS.MATH.CONTENT.6.NS.A.1');
    expect(within(dialog).getByText(/This is short \(1 word\)\. .*paste a few paragraphs/)).toBeInTheDocument();
    expect(content).toHaveAccessibleDescription(expect.stringContaining('paste a few paragraphs'));
    await user.clear(content);
    await user.click(content);
    await user.paste('Cells are the basic unit of life. '.repeat(10));
    expect(within(dialog).queryByText(/This is short/)).not.toBeInTheDocument();
  });

  it('when the job fails because the text is too short, then the server’s reason shows, not a generic error', async () => {
    const reason =
      'There is not enough lesson text to write questions from. Paste the lesson itself (a few paragraphs), not only a topic or a standard code, or ask your administrator to configure a model.';
    stubFetch({
      'POST /api/assessments': () => jsonResponse(201, { id: ASSESSMENT_ID, title: 'Cells', classId: CLASS_ID }),
      [`GET /api/assessments/${ASSESSMENT_ID}/generation`]: () =>
        jsonResponse(200, job('failed', { error: { reason: 'too_little_text', message: reason } })),
    });
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Fractions');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Adding fractions');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await within(dialog).findByText(reason)).toBeInTheDocument();
  });

  it('when the job fails on quota, then the quota message and Retry show', async () => {
    stubFetch({
      'POST /api/assessments': () => jsonResponse(201, { id: ASSESSMENT_ID, title: 'Cells', classId: CLASS_ID }),
      [`GET /api/assessments/${ASSESSMENT_ID}/generation`]: () =>
        jsonResponse(200, job('failed', { provider: 'openai', error: { reason: 'quota', message: 'quota' } })),
    });
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Cells');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Cells are the unit of life.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    await waitFor(() =>
      expect(
        within(dialog).getByText(
          'OpenAI API quota exceeded. Please check your billing and usage limits or try again later.',
        ),
      ).toBeInTheDocument(),
    );
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('when the creation call fails, then the generic message shows', async () => {
    stubFetch({ 'POST /api/assessments': () => jsonResponse(500, { message: 'boom' }) });
    const { user } = renderModal(CLASS_ID);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title'), 'Cells');
    await user.type(within(dialog).getByLabelText('Content to assess'), 'Cells are the unit of life.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Assessment' }));
    expect(await within(dialog).findByText('Failed to create assessment. Please try again.')).toBeInTheDocument();
  });
});

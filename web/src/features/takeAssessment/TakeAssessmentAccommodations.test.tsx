// The taking page with a student's accommodations (#32 item 1) and a timed attempt's announcements
// (#32 item 4): read aloud (speech synthesis stubbed), large text and high contrast, line guide,
// answer masking; a classmate with none sees none of it.
import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STUDENT, stubFetch, type Route as FetchRoute } from '../../test/fetchStub';
import { stubSpeech } from '../../test/fakeSpeech';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { TakeAssessmentPage } from './TakeAssessmentPage';

const ASSESSMENT = {
  id: 'a1',
  classId: 'c1',
  title: 'Geography check',
  description: '',
  dueDate: null,
  isActive: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  className: 'Geography',
  subject: 'Social Studies',
  questionCount: 2,
  submitted: false,
  resultId: null,
};
const QUESTIONS = [
  {
    id: 'q1',
    assessmentId: 'a1',
    questionText: 'Capital of France?',
    questionType: 'multiple_choice',
    options: ['Paris', 'Lyon', 'Nice', 'Lille'],
    points: '1.00',
    position: 1,
  },
  {
    id: 'q2',
    assessmentId: 'a1',
    questionText: '2 + 2 = ?',
    questionType: 'short_answer',
    options: [],
    points: '1.00',
    position: 2,
  },
];
const NONE = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

let students = 0;
let me = STUDENT;
beforeEach(() => {
  students += 1;
  me = { ...STUDENT, id: `acc-student-${students}` };
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAs(accommodations: Partial<typeof NONE> | null, overrides: Record<string, FetchRoute> = {}) {
  stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, me),
    'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, QUESTIONS),
    'GET /api/assessments/a1/responses': () => jsonResponse(200, []),
    ...(accommodations
      ? { 'GET /api/student/accommodations': () => jsonResponse(200, { ...NONE, ...accommodations }) }
      : {}),
    'POST /api/responses': (init) =>
      jsonResponse(200, { id: 'x', updatedAt: '2026-03-05T10:00:00.000Z', ...JSON.parse(String(init?.body)) }),
    ...overrides,
  });
  return renderWithProviders(
    <Routes>
      <Route path="/assessment/:id" element={<TakeAssessmentPage />} />
    </Routes>,
    { route: '/assessment/a1' },
  );
}

describe('TakeAssessmentPage accommodations', () => {
  it('when the student has read aloud, then the button named for the question speaks it and its choices in the chosen voice and speed, highlighting each word', async () => {
    const { spoken, synth } = stubSpeech();
    const { user } = renderAs({ readAloud: true });
    const button = await screen.findByRole('button', { name: 'Read aloud question 1' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Voice' }), 'Ana (es-ES)');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Speed' }), '1.5×');
    expect(JSON.parse(localStorage.getItem('checkpoint.readAloud')!)).toEqual({ voice: 'v-es', rate: 1.5 });
    await user.click(button);
    expect(spoken.map((u) => u.text)).toEqual([
      'Capital of France?',
      'Choice 1. Paris',
      'Choice 2. Lyon',
      'Choice 3. Nice',
      'Choice 4. Lille',
    ]);
    expect(spoken.every((u) => u.rate === 1.5 && u.voice?.voiceURI === 'v-es' && u.lang === 'es-ES')).toBe(true);
    // The word being read is marked: in the question, then in a choice (after its spoken "Choice 2.").
    act(() => spoken[0]!.onboundary?.({ name: 'word', charIndex: 8, charLength: 2 }));
    expect(screen.getByTestId('reading-word')).toHaveTextContent(/^of$/);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Question 1: Capital of France?');
    act(() => spoken[2]!.onboundary?.({ name: 'word', charIndex: 10, charLength: 0 }));
    expect(screen.getByTestId('reading-word')).toHaveTextContent(/^Lyon$/);
    expect(screen.getByLabelText('Lyon')).toBeInTheDocument();
    // While reading, the button stops it; at the end it is Read aloud again.
    await user.click(screen.getByRole('button', { name: 'Stop reading' }));
    expect(synth.cancel).toHaveBeenCalled();
    expect(screen.queryByTestId('reading-word')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Read aloud question 1' }));
    act(() => spoken[spoken.length - 1]!.onend?.());
    expect(screen.getByRole('button', { name: 'Read aloud question 1' })).toBeInTheDocument();
  });

  it('when the browser has no speech synthesis, then the page says read aloud is not available', async () => {
    renderAs({ readAloud: true });
    expect(await screen.findByText('Read aloud is not available in this browser.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Read aloud/ })).not.toBeInTheDocument();
  });

  it('when the student has large text and high contrast, then the page carries both classes while open, and not after', async () => {
    const { unmount } = renderAs({ largeText: true, highContrast: true });
    await screen.findByLabelText('Paris');
    await waitFor(() => expect(document.documentElement).toHaveClass('acc-large-text', 'acc-high-contrast'));
    unmount();
    expect(document.documentElement).not.toHaveClass('acc-large-text');
    expect(document.documentElement).not.toHaveClass('acc-high-contrast');
  });

  it('when the student has the line guide, then the band follows the focus and the pointer and is hidden from assistive technology', async () => {
    const { user } = renderAs({ lineGuide: true });
    const paris = await screen.findByLabelText('Paris');
    const guide = screen.getByTestId('line-guide');
    expect(guide).toHaveAttribute('aria-hidden', 'true');
    vi.spyOn(paris, 'getBoundingClientRect').mockReturnValue({ top: 200, height: 20 } as DOMRect);
    await user.click(paris);
    expect(guide.style.top).toBe(`${210 - 28}px`);
    act(() => {
      document.dispatchEvent(new MouseEvent('pointermove', { clientY: 400 }));
    });
    expect(guide.style.top).toBe(`${400 - 28}px`);
  });

  it('when the student has answer masking, then each choice hides behind Show choice N until revealed, and read aloud reads only those shown', async () => {
    const { spoken } = stubSpeech();
    const { user } = renderAs({ answerMasking: true, readAloud: true });
    const group = await screen.findByRole('group', { name: 'Answer choices' });
    expect(within(group).queryByRole('radio')).not.toBeInTheDocument();
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Show choice 1', 'Show choice 2', 'Show choice 3', 'Show choice 4']);
    await user.click(within(group).getByRole('button', { name: 'Show choice 2' }));
    expect(within(group).getByRole('radio', { name: 'Lyon' })).toHaveFocus();
    expect(within(group).getAllByRole('radio')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Read aloud question 1' }));
    expect(spoken.map((u) => u.text)).toEqual(['Capital of France?', 'Choice 2. Lyon']);
    // Answered and back again: the answer stays shown.
    await user.click(within(group).getByRole('radio', { name: 'Lyon' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    const again = await screen.findByRole('group', { name: 'Answer choices' });
    expect(within(again).getByRole('radio', { name: 'Lyon' })).toBeChecked();
    expect(within(again).getAllByRole('button', { name: /Show choice/ })).toHaveLength(3);
  });

  it('when a classmate has no accommodations (or they cannot be read), then none of it shows', async () => {
    stubSpeech();
    renderAs(null);
    const group = await screen.findByRole('group', { name: 'Answer choices' });
    expect(within(group).getAllByRole('radio')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: /Read aloud|Show choice/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('line-guide')).not.toBeInTheDocument();
    expect(document.documentElement).not.toHaveClass('acc-large-text');
  });
});

describe('TakeAssessmentPage time announcements', () => {
  it('when 5 minutes and then 1 minute are left, then a polite and then an assertive region says so; Time left says the time on request', async () => {
    const { user } = renderAs(null, {
      'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSESSMENT, timeLimitSeconds: 900, secondsLeft: 61 }),
    });
    const polite = await screen.findByTestId('time-polite');
    const assertive = screen.getByTestId('time-assertive');
    expect(polite).toHaveAttribute('aria-live', 'polite');
    expect(assertive).toHaveAttribute('aria-live', 'assertive');
    // Opened with 61 seconds left: the five-minute warning says what is really left.
    await waitFor(() => expect(polite).toHaveTextContent('1 minute 1 second left'));
    expect(assertive).toBeEmptyDOMElement();
    await waitFor(() => expect(assertive).toHaveTextContent(/^1 minute left$/), { timeout: 4_000 });
    await user.click(screen.getByRole('button', { name: 'Time left' }));
    expect(polite).toHaveTextContent(/^Time left: (1 minute|\d+ seconds)$/);
  });

  it('when the time left crosses 5 minutes, then the polite region says "5 minutes left"', async () => {
    renderAs(null, {
      'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSESSMENT, timeLimitSeconds: 900, secondsLeft: 301 }),
    });
    const polite = await screen.findByTestId('time-polite');
    expect(polite).toBeEmptyDOMElement();
    await waitFor(() => expect(polite).toHaveTextContent(/^5 minutes left$/), { timeout: 4_000 });
  });

  it('when the assessment is untimed, then there is no Time left button', async () => {
    renderAs(null);
    await screen.findByLabelText('Paris');
    expect(screen.queryByRole('button', { name: 'Time left' })).not.toBeInTheDocument();
  });
});

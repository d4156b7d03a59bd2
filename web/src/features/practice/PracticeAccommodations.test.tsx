// The practice page with a student's accommodations (#32 item 1): the reading read aloud with the
// question and the choices shown, masked choices, the page-wide classes; none for a teacher.
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STUDENT, TEACHER, stubFetch } from '../../test/fetchStub';
import { stubSpeech } from '../../test/fakeSpeech';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { PracticeRunner } from './PracticeRunner';

const NONE = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderRunner(user: typeof STUDENT | typeof TEACHER, accommodations: Partial<typeof NONE>) {
  stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, user),
    'GET /api/student/accommodations': () => jsonResponse(200, { ...NONE, ...accommodations }),
  });
  return renderWithProviders(
    <PracticeRunner
      title="Support Practice"
      reading="Plants make food from light."
      readingOnFirstOnly
      questions={[
        {
          key: 'q1',
          question: 'Which gas do plants take in?',
          type: 'multiple_choice',
          options: ['Oxygen', 'Carbon dioxide'],
        },
      ]}
      submitLabel="Submit All Answers"
      onSubmit={async () => 100}
      passedHeading="Excellent Work!"
      failedHeading="Keep Practicing!"
      dashboardPath="/student-dashboard"
    />,
  );
}

describe('PracticeRunner accommodations', () => {
  it('when the student has read aloud and answer masking, then the reading, the question and the revealed choices are read, and the reading highlights its words', async () => {
    const { spoken } = stubSpeech();
    const { user } = renderRunner(STUDENT, { readAloud: true, answerMasking: true, largeText: true });
    const group = await screen.findByRole('group', { name: 'Answer choices' });
    await screen.findByRole('button', { name: 'Show choice 1' });
    expect(within(group).queryByRole('radio')).not.toBeInTheDocument();
    expect(document.documentElement).toHaveClass('acc-large-text');
    await user.click(within(group).getByRole('button', { name: 'Show choice 2' }));
    expect(within(group).getByRole('radio', { name: 'Carbon dioxide' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Read aloud question 1' }));
    expect(spoken.map((u) => u.text)).toEqual([
      'Reading. Plants make food from light.',
      'Which gas do plants take in?',
      'Choice 2. Carbon dioxide',
    ]);
    act(() => spoken[0]!.onboundary?.({ name: 'word', charIndex: 'Reading. '.length + 7, charLength: 4 }));
    expect(await screen.findByTestId('reading-word')).toHaveTextContent(/^make$/);
  });

  it('when a teacher opens it, then no accommodations apply', async () => {
    stubSpeech();
    renderRunner(TEACHER, { readAloud: true, answerMasking: true });
    const group = await screen.findByRole('group', { name: 'Answer choices' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Read aloud/ })).not.toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/test-utils';
import { orderFor, PracticeRunner } from './PracticeRunner';

const questions = [
  {
    key: 'q1',
    question: 'Which gas do plants take in?',
    type: 'multiple_choice',
    options: ['Oxygen', 'Carbon dioxide'],
  },
  { key: 'q2', question: 'Plants release oxygen.', type: 'true_false', options: [] },
  { key: 'q3', question: 'The green pigment is ____.', type: 'short_answer', options: [] },
];

function renderRunner(onSubmit: (a: Record<string, string>) => Promise<number>, onRetry = vi.fn()) {
  return renderWithProviders(
    <PracticeRunner
      title="Support Practice"
      reading="Plants make food from light."
      readingOnFirstOnly
      questions={questions}
      submitLabel="Submit All Answers"
      onSubmit={onSubmit}
      onRetry={onRetry}
      passedHeading="Excellent Work!"
      failedHeading="Keep Practicing!"
      dashboardPath="/student-dashboard"
    />,
  );
}

describe('PracticeRunner', () => {
  it('when a question is unanswered, then Next is disabled; going back restores the answer', async () => {
    const { user } = renderRunner(async () => 100);
    expect(screen.getByText('Question 1 of 3')).toBeInTheDocument();
    expect(screen.getByText('Plants make food from light.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByLabelText('Carbon dioxide'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 2 of 3')).toBeInTheDocument();
    expect(screen.queryByText('Plants make food from light.')).not.toBeInTheDocument();
    // The new question's heading takes the focus, so that it is read out.
    expect(screen.getByRole('heading', { name: 'Question 2: Plants release oxygen.' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByLabelText('Carbon dioxide')).toBeChecked();
    expect(screen.getByRole('heading', { name: 'Question 1: Which gas do plants take in?' })).toHaveFocus();
  });

  it('when the student has not answered yet, then no validation message shows; when they empty an answer, then it does', async () => {
    const { user } = renderRunner(async () => 100);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.queryByText('Please select or provide an answer')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Carbon dioxide'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.queryByText('Please select or provide an answer')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('True'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // The short answer: nothing said before typing; typed and erased, the message and its link.
    expect(screen.queryByText('Please select or provide an answer')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Your answer'), 'c');
    await user.clear(screen.getByLabelText('Your answer'));
    expect(screen.getByText('Please select or provide an answer')).toBeInTheDocument();
    expect(screen.getByLabelText('Your answer')).toHaveAccessibleDescription('Please select or provide an answer');
    expect(screen.getByRole('button', { name: 'Submit All Answers' })).toBeDisabled();
  });

  it('when submitted below 80, then Keep Practicing! and Try Again resets the answers', async () => {
    const onSubmit = vi.fn(async () => 66.7);
    const onRetry = vi.fn();
    const { user } = renderRunner(onSubmit, onRetry);
    await user.click(screen.getByLabelText('Carbon dioxide'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByLabelText('True'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('button', { name: 'Submit All Answers' })).toBeDisabled();
    await user.type(screen.getByLabelText('Your answer'), 'chlorophyll');
    await user.click(screen.getByRole('button', { name: 'Submit All Answers' }));
    expect(onSubmit).toHaveBeenCalledWith({ q1: 'Carbon dioxide', q2: 'True', q3: 'chlorophyll' });
    expect(await screen.findByRole('heading', { name: 'Keep Practicing!' })).toBeInTheDocument();
    expect(screen.getByTestId('practice-score')).toHaveTextContent('67%');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/student-dashboard');
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalled();
    expect(await screen.findByText('Question 1 of 3')).toBeInTheDocument();
    // The retry asks the same questions in another order, every answer cleared.
    expect(screen.queryByLabelText('Carbon dioxide')).not.toBeInTheDocument();
    for (let i = 0; i < 3; i++) {
      for (const box of screen.queryAllByRole('radio')) expect(box).not.toBeChecked();
      const typed = screen.queryByLabelText('Your answer');
      if (typed) expect(typed).toHaveValue('');
      if (i < 2) {
        const choice = screen.queryAllByRole('radio')[0];
        if (choice) await user.click(choice);
        else await user.type(screen.getByLabelText('Your answer'), 'x');
        await user.click(screen.getByRole('button', { name: 'Next' }));
      }
    }
  });

  it('when the order is drawn for a retry, then it differs from the first and keeps every question', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    expect(orderFor(items, 0)).toEqual(items);
    for (const round of [1, 2, 3]) {
      const order = orderFor(items, round);
      expect(order).not.toEqual(items);
      expect([...order].sort()).toEqual(items);
    }
    expect(orderFor(['a', 'b'], 1)).toEqual(['b', 'a']);
  });

  it('when submitted at 80 or more, then Excellent Work! and no retry', async () => {
    const { user } = renderRunner(async () => 100);
    await user.click(screen.getByLabelText('Oxygen'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByLabelText('False'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByLabelText('Your answer'), 'x');
    await user.click(screen.getByRole('button', { name: 'Submit All Answers' }));
    expect(await screen.findByRole('heading', { name: 'Excellent Work!' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });
});

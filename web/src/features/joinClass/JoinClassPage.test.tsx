import { screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { JoinClassPage, SignedOutJoinClassPage } from './JoinClassPage';
import { peekPendingJoinCode, takePendingJoinCode } from './pendingJoin';

function Where() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

function renderJoin(page: 'in' | 'out' = 'in') {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/join-class" element={page === 'in' ? <JoinClassPage /> : <SignedOutJoinClassPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { route: '/join-class' },
  );
}

const input = () => screen.getByLabelText('Class Code');

describe('JoinClassPage', () => {
  it('when a code is typed in lower case, then it shows in upper case and is sent so', async () => {
    const fetchMock = stubFetch({
      'POST /api/classes/join': () => jsonResponse(200, { className: 'Biology', classId: 'c1' }),
    });
    const { user } = renderJoin();
    expect(screen.getByRole('heading', { name: 'Join a Class' })).toBeInTheDocument();
    expect(screen.getByText('Class codes are usually 6-8 characters long')).toBeInTheDocument();
    await user.type(input(), 'abc2de');
    expect(input()).toHaveValue('ABC2DE');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/classes/join');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ joinCode: 'ABC2DE' });
    expect(screen.getByText("You've joined Biology!")).toBeInTheDocument();
  });

  it('when the code is too short or too long, then the field messages show and nothing is sent', async () => {
    const fetchMock = stubFetch({});
    const { user } = renderJoin();
    await user.type(input(), 'abc');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    expect(await screen.findByText('Join code must be at least 6 characters')).toBeInTheDocument();
    await user.clear(input());
    await user.type(input(), 'abcdefghj');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    expect(await screen.findByText('Join code must be at most 8 characters')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('when the join is pending, then the button reads Joining Class...', async () => {
    let answer: (r: Response) => void = () => undefined;
    stubFetch({ 'POST /api/classes/join': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { user } = renderJoin();
    await user.type(input(), 'abcdef');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    expect(await screen.findByRole('button', { name: 'Joining Class...' })).toBeDisabled();
    answer(jsonResponse(200, { className: 'Art', classId: 'c2' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it.each([
    [
      404,
      { message: 'Class not found', code: 'not_found' },
      'Class not found. Please check the join code and try again.',
    ],
    [
      409,
      { message: 'Already enrolled in this class', code: 'already_enrolled' },
      "You're already enrolled in this class.",
    ],
    [500, { message: 'boom' }, 'Failed to join class. Please check the join code and try again.'],
  ])('when the join answers %i, then the Error toast shows its text', async (status, body, text) => {
    stubFetch({ 'POST /api/classes/join': () => jsonResponse(status, body) });
    const { user } = renderJoin();
    await user.type(input(), 'ZZZZZZ');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent(text);
    expect(screen.getByTestId('location')).toHaveTextContent('/join-class');
  });

  it('when signed out and the code names a class, then the code is kept and the visitor goes to sign in', async () => {
    const fetchMock = stubFetch({
      'GET /api/classes/join-code?joinCode=ABCDEFG': () => jsonResponse(200, { className: 'Biology 7' }),
    });
    const { user } = renderJoin('out');
    await user.type(input(), 'abcdefg');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth?mode=login&next=join'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('toast')).toHaveTextContent('join Biology 7');
    expect(peekPendingJoinCode()).toBe('ABCDEFG');
    expect(takePendingJoinCode()).toBe('ABCDEFG');
    expect(peekPendingJoinCode()).toBeNull();
  });

  it('when signed out and the code names no class, then Class not found shows at once and the visitor stays', async () => {
    stubFetch({
      'GET /api/classes/join-code?joinCode=ZZZZZZZ': () =>
        jsonResponse(404, { message: 'Class not found', code: 'NOT_FOUND' }),
    });
    const { user } = renderJoin('out');
    await user.type(input(), 'zzzzzzz');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Class not found. Please check the join code and try again.',
    );
    expect(screen.getByTestId('location')).toHaveTextContent('/join-class');
    expect(peekPendingJoinCode()).toBeNull();
  });

  it('when signed out and the checks are rate limited, then the wait is said and the visitor stays', async () => {
    stubFetch({
      'GET /api/classes/join-code?joinCode=ABCDEFG': () =>
        jsonResponse(429, {
          message: 'Too many join code checks. Please wait a minute and try again.',
          code: 'RATE_LIMITED',
        }),
    });
    const { user } = renderJoin('out');
    await user.type(input(), 'abcdefg');
    await user.click(screen.getByRole('button', { name: 'Join Class' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many join code checks');
    expect(screen.getByTestId('location')).toHaveTextContent('/join-class');
    expect(peekPendingJoinCode()).toBeNull();
  });
});

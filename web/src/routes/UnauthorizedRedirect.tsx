import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { redirectToAuthDone, UNAUTHORIZED_REDIRECT_MS } from '../session/authSlice';

/** Performs the redirect to /auth that an Unauthorized toast announced (500 ms later). */
export function UnauthorizedRedirect() {
  const requestedAt = useAppSelector((state) => state.auth.redirectToAuthRequestedAt);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  useEffect(() => {
    if (requestedAt === null) return undefined;
    const timer = window.setTimeout(() => {
      dispatch(redirectToAuthDone());
      navigate('/auth');
    }, UNAUTHORIZED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [requestedAt, dispatch, navigate]);
  return null;
}

import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiSlice } from '../api/apiSlice';
import { useAppDispatch } from '../app/hooks';
import { useLogoutMutation } from './authApi';

/** Logout, clear the cached user, go to / — also when the call fails. */
export function useSignOut(): () => Promise<void> {
  const [logout] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await logout().unwrap();
    } catch (error) {
      console.error('Logout failed', error);
    }
    dispatch(apiSlice.util.resetApiState());
    navigate('/', { replace: true });
  }, [logout, dispatch, navigate]);
}

// Session-level UI state: a pending "go to /auth" after an Unauthorized toast (api/baseQuery.ts on a 401).
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction } from '@reduxjs/toolkit';
import { showToast, type ToastState } from '../components/toast/toastSlice';
import { i18n } from '../i18n/i18n';

export const UNAUTHORIZED_REDIRECT_MS = 500;

export interface AuthUiState {
  /** Set when the UI must go to /auth; a new value restarts the 500 ms timer. */
  redirectToAuthRequestedAt: number | null;
}

const initialState: AuthUiState = { redirectToAuthRequestedAt: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    redirectToAuthRequested(state, action: PayloadAction<number>) {
      state.redirectToAuthRequestedAt = action.payload;
    },
    redirectToAuthDone(state) {
      state.redirectToAuthRequestedAt = null;
    },
  },
});

export const { redirectToAuthRequested, redirectToAuthDone } = authSlice.actions;

/** Toast 'Unauthorized' and schedule the redirect to /auth (performed by <UnauthorizedRedirect>). */
export function sessionExpired(): ThunkAction<void, { auth: AuthUiState; toast: ToastState }, unknown, UnknownAction> {
  return (dispatch) => {
    dispatch(
      showToast({
        title: i18n.t('common:toast.unauthorized'),
        description: i18n.t('common:toast.loggedOut'),
        variant: 'destructive',
      }),
    );
    dispatch(redirectToAuthRequested(Date.now()));
  };
}

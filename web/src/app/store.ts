import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { apiSlice } from '../api/apiSlice';
import { toastSlice } from '../components/toast/toastSlice';
import { authSlice } from '../session/authSlice';

const rootReducer = combineSlices(apiSlice, toastSlice, authSlice);

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(apiSlice.middleware),
    preloadedState,
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

// One toast at a time: showing a new toast replaces the current one.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastMessage extends ToastInput {
  id: number;
  variant: ToastVariant;
}

export interface ToastState {
  current: ToastMessage | null;
  nextId: number;
}

const initialState: ToastState = { current: null, nextId: 1 };

export const toastSlice = createSlice({
  name: 'toast',
  initialState,
  reducers: {
    showToast(state, action: PayloadAction<ToastInput>) {
      state.current = { variant: 'default', ...action.payload, id: state.nextId };
      state.nextId += 1;
    },
    dismissToast(state, action: PayloadAction<number | undefined>) {
      if (action.payload === undefined || state.current?.id === action.payload) state.current = null;
    },
  },
});

export const { showToast, dismissToast } = toastSlice.actions;

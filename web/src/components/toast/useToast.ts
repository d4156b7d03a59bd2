import { useCallback } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { showToast, type ToastInput } from './toastSlice';

export function useToast(): (toast: ToastInput) => void {
  const dispatch = useAppDispatch();
  return useCallback((toast: ToastInput) => dispatch(showToast(toast)), [dispatch]);
}

import { lazy, Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { useAppSelector } from './app/hooks';
import { useModalTabWrap } from './components/useModalTabWrap';
import { AppRoutes } from './routes/AppRoutes';

// The toast's markup and transitions load with the first toast, not with every page.
const Toaster = lazy(() => import('./components/toast/Toaster').then((m) => ({ default: m.Toaster })));

function Toasts() {
  const shown = useAppSelector((state) => state.toast.current !== null);
  return shown ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function App() {
  useModalTabWrap();
  return (
    <BrowserRouter>
      {/* The first strings of a language load before anything shows (i18n/i18n.ts). */}
      <Suspense fallback={null}>
        <AppRoutes />
        <Toasts />
      </Suspense>
    </BrowserRouter>
  );
}

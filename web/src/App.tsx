import { BrowserRouter } from 'react-router';
import { Toaster } from './components/toast/Toaster';
import { AppRoutes } from './routes/AppRoutes';

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
      <Toaster />
    </BrowserRouter>
  );
}

import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, type InitialEntry } from 'react-router';
import { makeStore, type AppStore, type RootState } from '../app/store';
import { Toaster } from '../components/toast/Toaster';

interface Options {
  /** The path, or a history entry with its state. */
  route?: InitialEntry;
  preloadedState?: Partial<RootState>;
  store?: AppStore;
}

export function renderWithProviders(ui: ReactElement, { route = '/', preloadedState, store }: Options = {}) {
  const appStore = store ?? makeStore(preloadedState);
  const user = userEvent.setup();
  const result = render(
    <Provider store={appStore}>
      <MemoryRouter initialEntries={[route]}>
        {ui}
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  return { store: appStore, user, ...result };
}

/** A fetch stub answering by "METHOD path" with a status and JSON body (or 404). */
export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

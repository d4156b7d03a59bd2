// A modal whose code loads when it first opens: a page's first load then carries no form library,
// schema or modal machinery it may never show (budgets: routes/routeTable.ts). Once opened it
// stays mounted, so closing animates and behaves as before.
import { lazy, Suspense, useState, type ComponentType } from 'react';

export function lazyModal<P extends object>(
  load: () => Promise<ComponentType<P>>,
  /** Whether these props show the modal; `show` unless the modal says it otherwise. */
  shown: (props: P) => boolean = (props) => (props as { show?: boolean }).show === true,
): ComponentType<P> {
  const Modal = lazy(async () => ({ default: await load() }));
  return function LazyModal(props: P) {
    const [opened, setOpened] = useState(() => shown(props));
    if (!opened && shown(props)) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Modal {...props} />
      </Suspense>
    );
  };
}

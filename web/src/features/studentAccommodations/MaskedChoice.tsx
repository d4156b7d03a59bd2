// Answer masking: each choice hidden behind a "Show choice N" button until the student reveals it
// (then it stays shown for that question). Without masking, the choice as it is.
import { useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from '../../i18n/react';

export function useRevealed(questionKey: string) {
  const [revealed, setRevealed] = useState<{ key: string; shown: ReadonlySet<number> }>({
    key: questionKey,
    shown: new Set(),
  });
  const shown = revealed.key === questionKey ? revealed.shown : new Set<number>();
  return {
    isShown: (i: number) => shown.has(i),
    reveal: (i: number) => setRevealed({ key: questionKey, shown: new Set([...shown, i]) }),
  };
}

/** Masked: the button; once pressed, the choice, with the focus on its input (`inputId`). */
export function MaskedChoice({
  masked,
  index,
  inputId,
  onReveal,
  children,
}: {
  masked: boolean;
  index: number;
  inputId: string;
  onReveal: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('take');
  if (!masked) return <>{children}</>;
  const reveal = () => {
    flushSync(onReveal);
    document.getElementById(inputId)?.focus();
  };
  return (
    <div className="mb-2">
      <button type="button" className="btn btn-outline-secondary acc-mask" onClick={reveal}>
        {t('showChoice', { n: index + 1 })}
      </button>
    </div>
  );
}

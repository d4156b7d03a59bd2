// The level of one result, the same on every screen (docs/adr/005): the server's performanceLevel as
// a badge and, when support practice raised it, 'raised to At Standard by practice' beside it, so the
// original score next to it never contradicts the level. The words come in the interface's language
// (level names from common; the raised note from the assessments namespace, loaded only for a raised one).
import { useLabel } from '../../i18n/labels';
import { useTranslation } from '../../i18n/react';
import { LevelBadge } from './LevelBadge';
import { bandForLevel, isLevel, isRaised, levelBand, ordinal, type ResultLevelFields } from './performance';

/** '2nd try' (English), '2.º intento' (Spanish): the practice attempt that raised a level, or null. */
function useTryText(): (r: ResultLevelFields) => string | null {
  const { t, i18n } = useTranslation('assessments');
  return (r) =>
    r.raisedAttempt && r.raisedAttempt >= 1
      ? t('resultLevel.try', {
          ordinal: i18n.language === 'en' ? ordinal(r.raisedAttempt) : `${r.raisedAttempt}.º`,
        })
      : null;
}

/** A raised result: the badge with the note beside it, and its whole level in words as the title. */
function RaisedLevel({ result, testId }: { result: ResultLevelFields; testId?: string | undefined }) {
  const { t } = useTranslation('assessments');
  const label = useLabel();
  const tryText = useTryText()(result);
  const level = label(bandForLevel(result.performanceLevel).label);
  const from = isLevel(result.originalLevel) ? label(levelBand(result.originalLevel).label) : null;
  const note = tryText ? t('resultLevel.raisedTry', { level, try: tryText }) : t('resultLevel.raised', { level });
  const title = from
    ? tryText
      ? t('resultLevel.textFromTry', { level, from, try: tryText })
      : t('resultLevel.textFrom', { level, from })
    : tryText
      ? t('resultLevel.textTry', { level, try: tryText })
      : t('resultLevel.text', { level });
  return (
    <span className="d-inline-flex flex-wrap align-items-center gap-1" title={title}>
      <LevelBadge level={result.performanceLevel} testId={testId} />
      <small className="text-body-secondary" data-testid="raised-note">
        {note}
      </small>
    </span>
  );
}

export function ResultLevel({ result, testId }: { result: ResultLevelFields; testId?: string }) {
  const label = useLabel();
  if (isRaised(result)) return <RaisedLevel result={result} testId={testId} />;
  return (
    <span
      className="d-inline-flex flex-wrap align-items-center gap-1"
      title={label(bandForLevel(result.performanceLevel).label)}
    >
      <LevelBadge level={result.performanceLevel} testId={testId} />
    </span>
  );
}

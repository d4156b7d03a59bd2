// The level of one result, the same on every screen (docs/adr/005): the server's performanceLevel as
// a badge and, when support practice raised it, 'raised to At Standard by practice' beside it, so the
// original score next to it never contradicts the level.
import { LevelBadge } from './LevelBadge';
import { raisedNote, resultLevelText, type ResultLevelFields } from './performance';

export function ResultLevel({ result, testId }: { result: ResultLevelFields; testId?: string }) {
  const note = raisedNote(result);
  return (
    <span className="d-inline-flex flex-wrap align-items-center gap-1" title={resultLevelText(result)}>
      <LevelBadge level={result.performanceLevel} testId={testId} />
      {note && (
        <small className="text-body-secondary" data-testid="raised-note">
          {note}
        </small>
      )}
    </span>
  );
}

// A performance level as a badge: its name in words, coloured green, yellow or red; any
// other value is a grey 'No level'. One result shows the server's level everywhere (ADR 005).
import Badge from 'react-bootstrap/Badge';
import { useLabel } from '../../i18n/labels';
import { isLevel, levelBand } from './performance';

export function LevelBadge({ level, testId }: { level: string | null | undefined; testId?: string }) {
  const label = useLabel();
  const band = isLevel(level) ? levelBand(level) : undefined;
  const variant = band?.variant ?? 'secondary';
  return (
    <Badge bg={variant} text={variant === 'warning' ? 'dark' : undefined} data-testid={testId}>
      {label(band?.label ?? 'No level')}
    </Badge>
  );
}

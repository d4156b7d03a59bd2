/**
 * Bootstrap's progress bar with the progressbar role and its name on one element: react-bootstrap's
 * ProgressBar puts a given aria-label on the wrapper and leaves the progressbar itself unnamed.
 */
export function NamedProgressBar({
  name,
  percent,
  text,
  animated = false,
  className = '',
}: {
  /** What the bar measures, read by screen readers. */
  name: string;
  percent: number;
  /** Shown inside the bar. */
  text?: string;
  animated?: boolean;
  className?: string;
}) {
  const now = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      className={`progress ${className}`.trim()}
      role="progressbar"
      aria-label={name}
      aria-valuenow={now}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(text ? { 'aria-valuetext': text } : {})}
    >
      <div
        className={`progress-bar${animated ? ' progress-bar-striped progress-bar-animated' : ''}`}
        style={{ width: `${now}%` }}
      >
        {text}
      </div>
    </div>
  );
}

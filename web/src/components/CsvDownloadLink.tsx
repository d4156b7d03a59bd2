// A CSV export offered as a link the browser downloads: the session cookie goes with it and the
// server answers with the file as an attachment (never cached). Used by the standards' exports:
// the class heatmap, the district's standards, a student's standards, a common assessment's report.
import type { ReactNode } from 'react';

/** `describedBy`: the id of the heading of what it exports, when a page may show several. */
export function CsvDownloadLink({
  href,
  children,
  describedBy,
}: {
  href: string;
  children: ReactNode;
  describedBy?: string;
}) {
  return (
    <a className="btn btn-sm btn-outline-secondary" href={href} download aria-describedby={describedBy}>
      {children}
    </a>
  );
}

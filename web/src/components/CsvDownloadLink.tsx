// A CSV export offered as a link the browser downloads: the session cookie goes with it and the
// server answers with the file as an attachment (never cached). The one way the web offers a CSV:
// the class heatmap, the district's standards, a student's standards, a common assessment's report.
import type { ReactNode } from 'react';

export function CsvDownloadLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className="btn btn-sm btn-outline-secondary" href={href} download>
      {children}
    </a>
  );
}

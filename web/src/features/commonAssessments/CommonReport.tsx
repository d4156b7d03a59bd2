// The roll-up report of a common assessment: the district, each school and each class (students,
// submitted, average %, level counts, per standard). A group of fewer than 5 students shows no
// figures, only "fewer than 5 students" (the analytics service leaves them out). Its CSV export has
// the same lines and the same suppression.
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { CsvDownloadLink } from '../../components/CsvDownloadLink';
import { commonReportExportPath, useGetCommonAssessmentReportQuery, type ReportGroup } from './commonAssessmentsApi';

export const SUPPRESSED_TEXT = 'fewer than 5 students';

interface Row {
  key: string;
  label: string;
  group: ReportGroup;
}

function GroupRow({ label, group }: Omit<Row, 'key'>) {
  if (group.suppressed)
    return (
      <tr>
        <th scope="row">{label}</th>
        <td colSpan={5} className="text-body-secondary">
          {SUPPRESSED_TEXT}
        </td>
      </tr>
    );
  const standards = (group.standards ?? [])
    .map((s) => (s.suppressed ? `${s.code}: ${SUPPRESSED_TEXT}` : `${s.code}: ${s.averagePercentage ?? 0}%`))
    .join('; ');
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{group.students ?? 0}</td>
      <td>{group.submitted ?? 0}</td>
      <td>{group.averagePercentage ?? 0}%</td>
      <td>
        {group.levels ? `Below ${group.levels.below} · At ${group.levels.at} · Above ${group.levels.above}` : '—'}
      </td>
      <td>{standards || '—'}</td>
    </tr>
  );
}

export function CommonReport({ id }: { id: string }) {
  const report = useGetCommonAssessmentReportQuery(id);
  if (report.isLoading) return <Spinner animation="border" size="sm" role="status" aria-label="Loading the report" />;
  if (report.isError)
    return <Alert variant="danger">{serverMessageOr(report.error, 'The report could not be loaded')}</Alert>;
  const data = report.data;
  if (!data) return null;
  const rows: Row[] = [{ key: 'district', label: 'District', group: data.district }];
  for (const school of data.schools) {
    rows.push({ key: school.schoolId, label: school.schoolName, group: school });
    for (const c of school.classes)
      rows.push({ key: `${school.schoolId}/${c.classId}`, label: `${school.schoolName} / ${c.className}`, group: c });
  }
  return (
    <section aria-labelledby={`report-${id}`}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3 mb-2">
        <h3 id={`report-${id}`} className="h6 mb-0">
          Report{data.title ? `: ${data.title}` : ''}
        </h3>
        {data.schools.length > 0 && (
          <CsvDownloadLink href={commonReportExportPath(id)} describedBy={`report-${id}`}>
            Export report CSV
          </CsvDownloadLink>
        )}
      </div>
      {data.schools.length === 0 && <p className="text-body-secondary">No class has been given it yet.</p>}
      <Table responsive size="sm">
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Students</th>
            <th scope="col">Submitted</th>
            <th scope="col">Average</th>
            <th scope="col">Levels</th>
            <th scope="col">Standards</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <GroupRow key={r.key} label={r.label} group={r.group} />
          ))}
        </tbody>
      </Table>
    </section>
  );
}

// The roll-up report of a common assessment: the district, each school and each class (students,
// submitted, average %, level counts, per standard). A group of fewer than 5 students shows no
// figures, only "fewer than 5 students" (the analytics service leaves them out). Its CSV export has
// the same lines and the same suppression.
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { CsvDownloadLink } from '../../components/CsvDownloadLink';
import type { TFunction } from '../../i18n/i18n';
import { formatNumber, formatPercent } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';
import { commonReportExportPath, useGetCommonAssessmentReportQuery, type ReportGroup } from './commonAssessmentsApi';

interface Row {
  key: string;
  label: string;
  group: ReportGroup;
}

function GroupRow({ label, group }: Omit<Row, 'key'>) {
  const { t } = useTranslation('bank');
  if (group.suppressed)
    return (
      <tr>
        <th scope="row">{label}</th>
        <td colSpan={5} className="text-body-secondary">
          {t('standards.suppressed')}
        </td>
      </tr>
    );
  const standards = (group.standards ?? [])
    .map((s) =>
      t('commonAssessments.report.standard', {
        code: s.code,
        figure: s.suppressed ? t('standards.suppressed') : formatPercent(s.averagePercentage ?? 0),
      }),
    )
    .join('; ');
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{formatNumber(group.students ?? 0)}</td>
      <td>{formatNumber(group.submitted ?? 0)}</td>
      <td>{formatPercent(group.averagePercentage ?? 0)}</td>
      <td>{group.levels ? levelsText(t, group.levels) : '—'}</td>
      <td>{standards || '—'}</td>
    </tr>
  );
}

const levelsText = (t: TFunction, levels: NonNullable<ReportGroup['levels']>) =>
  t('commonAssessments.report.levels', { below: levels.below, at: levels.at, above: levels.above });

export function CommonReport({ id }: { id: string }) {
  const { t } = useTranslation('bank');
  const report = useGetCommonAssessmentReportQuery(id);
  if (report.isLoading)
    return <Spinner animation="border" size="sm" role="status" aria-label={t('commonAssessments.report.loading')} />;
  if (report.isError)
    return <Alert variant="danger">{serverMessageOr(report.error, t('commonAssessments.report.failed'))}</Alert>;
  const data = report.data;
  if (!data) return null;
  const rows: Row[] = [{ key: 'district', label: t('commonAssessments.report.district'), group: data.district }];
  for (const school of data.schools) {
    rows.push({ key: school.schoolId, label: school.schoolName, group: school });
    for (const c of school.classes)
      rows.push({ key: `${school.schoolId}/${c.classId}`, label: `${school.schoolName} / ${c.className}`, group: c });
  }
  return (
    <section aria-labelledby={`report-${id}`}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3 mb-2">
        <h3 id={`report-${id}`} className="h6 mb-0">
          {data.title
            ? t('commonAssessments.report.titleOf', { title: data.title })
            : t('commonAssessments.report.title')}
        </h3>
        {data.schools.length > 0 && (
          <CsvDownloadLink href={commonReportExportPath(id)} describedBy={`report-${id}`}>
            {t('commonAssessments.report.export')}
          </CsvDownloadLink>
        )}
      </div>
      {data.schools.length === 0 && <p className="text-body-secondary">{t('commonAssessments.report.none')}</p>}
      <Table responsive size="sm">
        <thead>
          <tr>
            <th scope="col">{t('commonAssessments.report.group')}</th>
            <th scope="col">{t('standards.district.students')}</th>
            <th scope="col">{t('commonAssessments.report.submitted')}</th>
            <th scope="col">{t('commonAssessments.report.average')}</th>
            <th scope="col">{t('commonAssessments.report.levelsHeader')}</th>
            <th scope="col">{t('standards.page.title')}</th>
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

// The district's mastery of each standard (GET /api/mastery/district, a page of standards by
// code): the district's figures, each school's and each class's, where a group of fewer than 5 students shows no
// figures, only "fewer than 5 students" (privacy); a CSV export of the same.
import { Fragment, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { CsvDownloadLink } from '../../components/CsvDownloadLink';
import { formatNumber, formatPercent } from '../../i18n/format';
import { useLabel } from '../../i18n/labels';
import { useTranslation } from '../../i18n/react';
import { levelLabel, levelVariant } from '../results';
import { DISTRICT_MASTERY_EXPORT_PATH, useGetDistrictMasteryQuery, type DistrictClass } from './standardsApi';

// Five standards a page: each lists every school and class of the district (a page of 20 was 4,000 class
// rows, ~0.8 MB, and over the view's 200 ms target under load; bench/README.md, "Mastery of standards").
export const PAGE_SIZE = 5;

type Figures = Pick<DistrictClass, 'suppressed' | 'students' | 'score' | 'level' | 'below' | 'at' | 'above'>;

/** A group's cells: level, score, students and the split by level; one cell saying why when suppressed. */
function FigureCells({ group }: { group: Figures }) {
  const { t } = useTranslation('bank');
  const levelName = useLabel();
  if (group.suppressed)
    return (
      <td colSpan={4} className="text-body-secondary fst-italic" data-suppressed="true">
        {t('standards.suppressed')}
      </td>
    );
  return (
    <>
      <td>
        {group.level && (
          <Badge
            bg={`${levelVariant(group.level)}-subtle`}
            text={`${levelVariant(group.level)}-emphasis`}
            className="border"
          >
            {levelName(levelLabel(group.level) ?? group.level)}
          </Badge>
        )}
      </td>
      <td className="text-end">{group.score === undefined ? '—' : formatPercent(group.score)}</td>
      <td className="text-end">{group.students === undefined ? '—' : formatNumber(group.students)}</td>
      <td className="small">
        {t('standards.district.byLevel', { below: group.below ?? 0, at: group.at ?? 0, above: group.above ?? 0 })}
      </td>
    </>
  );
}

export function DistrictMastery() {
  const { t } = useTranslation('bank');
  const [offset, setOffset] = useState(0);
  const page = useGetDistrictMasteryQuery({ limit: PAGE_SIZE, offset });
  const standards = page.data ?? [];

  return (
    <Card className="shadow-sm mb-4" as="section" aria-labelledby="district-mastery-title">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
          <Card.Title as="h2" className="h5 mb-0" id="district-mastery-title">
            {t('standards.district.title')}
          </Card.Title>
          {standards.length > 0 && (
            <CsvDownloadLink href={DISTRICT_MASTERY_EXPORT_PATH}>{t('standards.exportMastery')}</CsvDownloadLink>
          )}
        </div>
        {page.isLoading ? (
          <Spinner animation="border" size="sm" role="status">
            <span className="visually-hidden">{t('standards.loadingMastery')}</span>
          </Spinner>
        ) : page.isError ? (
          <Alert variant="danger" className="mb-0">
            {serverMessageOr(page.error, t('standards.masteryFailed'))}
          </Alert>
        ) : standards.length === 0 && offset === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="district-mastery-empty">
            {t('standards.district.empty')}
          </p>
        ) : (
          <>
            <Table size="sm" responsive className="mb-2 align-middle" aria-label={t('standards.district.table')}>
              <thead>
                <tr>
                  <th scope="col">{t('standards.district.group')}</th>
                  <th scope="col">{t('standards.level')}</th>
                  <th scope="col" className="text-end">
                    {t('standards.mastery')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('standards.district.students')}
                  </th>
                  <th scope="col">{t('standards.district.byLevelHeader')}</th>
                </tr>
              </thead>
              {standards.map((s) => (
                <tbody key={s.identifier} className="border-top border-2">
                  <tr className="table-light">
                    <th scope="row">{t('standards.district.standardRow', { code: s.code })}</th>
                    <FigureCells group={s} />
                  </tr>
                  {s.schools.map((school) => (
                    <Fragment key={school.schoolId}>
                      {/* Classes of no known school, when no school is known at all, need no heading. */}
                      {(school.schoolId || s.schools.length > 1) && (
                        <tr>
                          <th scope="row" className="ps-3">
                            {school.schoolName || t('standards.district.noSchool')}
                          </th>
                          <FigureCells group={school} />
                        </tr>
                      )}
                      {s.classes
                        .filter((c) => c.schoolId === school.schoolId)
                        .map((c) => (
                          <tr key={c.classId}>
                            <th scope="row" className="fw-normal ps-5">
                              {c.className}
                              {c.period ? ` (${c.period})` : ''}
                              <span className="d-block small text-body-secondary">{c.teacherName}</span>
                            </th>
                            <FigureCells group={c} />
                          </tr>
                        ))}
                    </Fragment>
                  ))}
                </tbody>
              ))}
            </Table>
            <div className="d-flex gap-2">
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={offset === 0 || page.isFetching}
                onClick={() => setOffset((o) => Math.max(0, o - PAGE_SIZE))}
              >
                {t('standards.district.previous')}
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={standards.length < PAGE_SIZE || page.isFetching}
                onClick={() => setOffset((o) => o + PAGE_SIZE)}
              >
                {t('standards.district.next')}
              </Button>
            </div>
          </>
        )}
      </Card.Body>
    </Card>
  );
}

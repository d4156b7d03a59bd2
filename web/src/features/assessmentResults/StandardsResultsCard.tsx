// The results page's Standards card: per standard the assessment's questions are aligned to, its
// aligned questions, the students whose result scored them, their average and how many fall in each
// submission band on that standard (counts written out, colour only beside the level's name).
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { ScrollRegion } from '../../components/ScrollRegion';
import { formatPercent, levelLabel, levelVariant, type AssessmentResults } from '../results';
import { StandardChips } from '../standards';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';
import { withLink } from './withLink';

export type AssessmentStandard = AssessmentResults['standards'][number];

const LEVELS = ['below', 'at', 'above'] as const;
const FIGURES = ['alignedQuestions', 'students', 'average'] as const;

function LevelHeader({ level }: { level: (typeof LEVELS)[number] }) {
  const label = useLabel();
  const variant = levelVariant(level);
  return (
    <th scope="col" className="text-end">
      <span
        className={`d-inline-block rounded border border-${variant} bg-${variant}-subtle align-middle me-1`}
        style={{ width: 12, height: 12 }}
        aria-hidden="true"
      />
      {label(levelLabel(level) ?? '')}
    </th>
  );
}

function StandardsTable({ standards }: { standards: readonly AssessmentStandard[] }) {
  const { t } = useTranslation('results');
  return (
    <ScrollRegion label={t('standards.table')}>
      <Table className="align-middle mb-0" aria-labelledby="standards-title" data-testid="standards-table">
        <thead>
          <tr>
            <th scope="col">{t('standards.standard')}</th>
            {FIGURES.map((name) => (
              <th key={name} scope="col" className="text-end">
                {t(`standards.${name}`)}
              </th>
            ))}
            {LEVELS.map((level) => (
              <LevelHeader key={level} level={level} />
            ))}
          </tr>
        </thead>
        <tbody>
          {standards.map((s) => (
            <tr key={s.identifier} data-testid={`standard-${s.code}`}>
              <th scope="row" className="fw-normal">
                <StandardChips standards={[s]} label={t('standards.standardCode', { code: s.code })} />
              </th>
              <td className="text-end">{s.questionCount}</td>
              <td className="text-end">{s.students}</td>
              <td className="text-end">{s.averagePercentage === null ? '—' : formatPercent(s.averagePercentage)}</td>
              {LEVELS.map((level) => (
                <td key={level} className="text-end">
                  {s.levels[level]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollRegion>
  );
}

interface Props {
  assessmentId: string;
  standards: readonly AssessmentStandard[];
  /** Results submitted so far (the page's summary). */
  submitted: number;
}

export function StandardsResultsCard({ assessmentId, standards, submitted }: Props) {
  const { t } = useTranslation('results');
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="standards-title">
      <Card.Body>
        <h2 id="standards-title" className="h5">
          {t('standards.title')}
        </h2>
        {standards.length === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="standards-empty">
            {withLink(t('standards.empty'), (text) => (
              <Link to={`/assessment-edit/${assessmentId}`}>{text}</Link>
            ))}
          </p>
        ) : (
          <>
            {submitted === 0 ? (
              <p className="text-body-secondary" data-testid="standards-no-submissions">
                {t('standards.noSubmissions')}
              </p>
            ) : (
              <p className="small text-body-secondary">{t('standards.counted')}</p>
            )}
            <StandardsTable standards={standards} />
          </>
        )}
      </Card.Body>
    </Card>
  );
}

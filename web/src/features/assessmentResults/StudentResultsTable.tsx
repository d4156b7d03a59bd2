// Each student's score and level, with their answers to every question on demand, and grading by
// hand: each answer right, wrong or part points with feedback, and feedback on the whole result.
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { ResultLevel, resultPracticeLink } from '../assessments';
import type { AssessmentResults } from '../results';
import { AttemptActions } from './AttemptActions';
import { GradeResultPanel } from './GradeResultPanel';
import { formatDateTime, formatPercent } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';
import type { TFunction } from '../../i18n/i18n';

type Result = AssessmentResults['results'][number];
type Question = AssessmentResults['questions'][number];

function fullName(r: Result): string {
  return `${r.student.firstName} ${r.student.lastName}`.trim();
}

function byName(a: Result, b: Result): number {
  return a.student.lastName.localeCompare(b.student.lastName) || a.student.firstName.localeCompare(b.student.firstName);
}

function practiceText(practice: Result['practice'], t: TFunction): string {
  if (practice.length === 0) return '—';
  return practice
    .map((p) => {
      const type = p.type === 'enrichment' || p.type === 'support' ? t(`table.practiceType.${p.type}`) : p.type;
      return t('table.practice', { type, count: p.attempts, best: formatPercent(p.bestScore) });
    })
    .join('; ');
}

function Answers({ result, questions }: { result: Result; questions: Question[] }) {
  const { t } = useTranslation('results');
  const answers = new Map(result.answers.map((a) => [a.questionId, a]));
  return (
    <ol className="list-unstyled mb-0 small">
      {questions.map((q) => {
        const answer = answers.get(q.id);
        return (
          <li key={q.id} className="py-1 border-bottom">
            <div className="fw-semibold">
              Q{q.position}. {q.questionText}
            </div>
            <div>
              {t('answers.answer')} {answer?.answer ? answer.answer : <em>{t('answers.none')}</em>}{' '}
              {answer?.pending ? (
                <Badge bg="warning" text="dark">
                  {t('answers.awaitingReview')}
                </Badge>
              ) : answer?.correct ? (
                <Badge bg="success">✓ {t('answers.correct')}</Badge>
              ) : (
                <Badge bg="danger">✗ {t('answers.incorrect')}</Badge>
              )}
              {!answer?.correct && (
                <span className="text-body-secondary"> {t('answers.correctWas', { answer: q.correctAnswer })}</span>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

export function StudentResultsTable({
  results,
  questions,
  showClass = false,
}: {
  results: Result[];
  questions: Question[];
  /** A column with the class each student took it through (an assessment of several classes). */
  showClass?: boolean;
}) {
  const { t } = useTranslation('results');
  const label = useLabel();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [grading, setGrading] = useState<string | null>(null);
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  if (results.length === 0) return <p className="text-body-secondary mb-0">{t('table.empty')}</p>;

  return (
    <Table responsive hover className="align-middle mb-0">
      <thead>
        <tr>
          <th scope="col">{t('table.student')}</th>
          {showClass && <th scope="col">{t('table.class')}</th>}
          <th scope="col">{t('table.score')}</th>
          <th scope="col">{t('table.level')}</th>
          <th scope="col">{t('table.points')}</th>
          <th scope="col">{t('table.submitted')}</th>
          <th scope="col">{t('table.attempt')}</th>
          <th scope="col">{t('table.practiceHeader')}</th>
          <th scope="col">{t('table.answers')}</th>
          <th scope="col">{t('table.reopenOrRetake')}</th>
          <th scope="col">{t('table.grade')}</th>
        </tr>
      </thead>
      <tbody>
        {[...results].sort(byName).map((r) => {
          const name = fullName(r);
          const expanded = open.has(r.id);
          const answersId = `answers-${r.id}`;
          const gradeId = `grade-row-${r.id}`;
          const isGrading = grading === r.id;
          return (
            <Fragment key={r.id}>
              <tr>
                <th scope="row" className="fw-normal">
                  {name}
                </th>
                {showClass && <td>{r.className || t('deletedClass')}</td>}
                <td>{formatPercent(r.percentage)}</td>
                <td>
                  <ResultLevel result={r} />
                </td>
                <td>
                  {r.earnedPoints} / {r.totalPoints}
                </td>
                <td>{formatDateTime(r.submittedAt, { dateStyle: 'short', timeStyle: 'medium' })}</td>
                <td>{t('table.attemptCounts', { attempt: r.attempt })}</td>
                <td className="small">
                  {practiceText(r.practice, t)}
                  {/* The practice written from this result's wrong answers, as the student gets it. */}
                  <Link
                    to={resultPracticeLink(r.id, 'teacher').to}
                    className="d-block"
                    aria-label={t('table.openPracticeOf', { name })}
                  >
                    {label(resultPracticeLink(r.id, 'teacher').label)}
                  </Link>
                </td>
                <td>
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    aria-expanded={expanded}
                    aria-controls={answersId}
                    aria-label={t(expanded ? 'table.hideAnswersOf' : 'table.showAnswersOf', { name })}
                    onClick={() => toggle(r.id)}
                  >
                    {expanded ? t('table.hide') : t('table.show')}
                  </Button>
                </td>
                <td>
                  <AttemptActions resultId={r.id} name={name} />
                </td>
                <td>
                  <Button
                    size="sm"
                    variant="outline-primary"
                    aria-expanded={isGrading}
                    aria-controls={gradeId}
                    aria-label={t(isGrading ? 'table.closeGradingOf' : 'table.gradeOf', { name })}
                    onClick={() => setGrading(isGrading ? null : r.id)}
                  >
                    {isGrading ? t('table.close') : t('table.grade')}
                  </Button>
                </td>
              </tr>
              {expanded && (
                <tr id={answersId}>
                  <td colSpan={showClass ? 11 : 10} className="bg-body-tertiary">
                    <Answers result={r} questions={questions} />
                  </td>
                </tr>
              )}
              {isGrading && (
                <tr id={gradeId}>
                  <td colSpan={showClass ? 9 : 8} className="bg-body-tertiary">
                    <GradeResultPanel resultId={r.id} studentName={name} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </Table>
  );
}

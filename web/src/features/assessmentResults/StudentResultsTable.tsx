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
import { formatDateTime } from '../../i18n/format';

type Result = AssessmentResults['results'][number];
type Question = AssessmentResults['questions'][number];

function fullName(r: Result): string {
  return `${r.student.firstName} ${r.student.lastName}`.trim();
}

function byName(a: Result, b: Result): number {
  return a.student.lastName.localeCompare(b.student.lastName) || a.student.firstName.localeCompare(b.student.firstName);
}

function practiceText(practice: Result['practice']): string {
  if (practice.length === 0) return '—';
  return practice
    .map((p) => {
      const type = p.type === 'enrichment' ? 'Enrichment' : p.type === 'support' ? 'Support' : p.type;
      return `${type}: ${p.attempts} ${p.attempts === 1 ? 'attempt' : 'attempts'}, best ${Math.round(p.bestScore)}%`;
    })
    .join('; ');
}

function Answers({ result, questions }: { result: Result; questions: Question[] }) {
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
              Answer: {answer?.answer ? answer.answer : <em>No answer</em>}{' '}
              {answer?.pending ? (
                <Badge bg="warning" text="dark">
                  Awaiting review
                </Badge>
              ) : answer?.correct ? (
                <Badge bg="success">✓ Correct</Badge>
              ) : (
                <Badge bg="danger">✗ Incorrect</Badge>
              )}
              {!answer?.correct && <span className="text-body-secondary"> (correct: {q.correctAnswer})</span>}
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
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [grading, setGrading] = useState<string | null>(null);
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  if (results.length === 0) return <p className="text-body-secondary mb-0">No submissions yet.</p>;

  return (
    <Table responsive hover className="align-middle mb-0">
      <thead>
        <tr>
          <th scope="col">Student</th>
          {showClass && <th scope="col">Class</th>}
          <th scope="col">Score</th>
          <th scope="col">Level</th>
          <th scope="col">Points</th>
          <th scope="col">Submitted</th>
          <th scope="col">Attempt</th>
          <th scope="col">Practice</th>
          <th scope="col">Answers</th>
          <th scope="col">Reopen or retake</th>
          <th scope="col">Grade</th>
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
                {showClass && <td>{r.className || 'Deleted class'}</td>}
                <td>{Math.round(r.percentage)}%</td>
                <td>
                  <ResultLevel result={r} />
                </td>
                <td>
                  {r.earnedPoints} / {r.totalPoints}
                </td>
                <td>{formatDateTime(r.submittedAt, { dateStyle: 'short', timeStyle: 'medium' })}</td>
                <td>Attempt {r.attempt} (counts)</td>
                <td className="small">
                  {practiceText(r.practice)}
                  {/* The practice written from this result's wrong answers, as the student gets it. */}
                  <Link
                    to={resultPracticeLink(r.id, 'teacher').to}
                    className="d-block"
                    aria-label={`Open practice of ${name}`}
                  >
                    {resultPracticeLink(r.id, 'teacher').label}
                  </Link>
                </td>
                <td>
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    aria-expanded={expanded}
                    aria-controls={answersId}
                    aria-label={`${expanded ? 'Hide' : 'Show'} answers of ${name}`}
                    onClick={() => toggle(r.id)}
                  >
                    {expanded ? 'Hide' : 'Show'}
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
                    aria-label={`${isGrading ? 'Close grading of' : 'Grade'} ${name}`}
                    onClick={() => setGrading(isGrading ? null : r.id)}
                  >
                    {isGrading ? 'Close' : 'Grade'}
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

// The score, level (as text, not colour only) and practice link after a submission, and below them
// each question with the student's answer and the correct one (the key is theirs once the result
// exists). Just after a submit the heading takes the focus, so that the score is read out.
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import type { Result } from '../assessments/assessmentsApi';
import { LevelBadge } from '../assessments/LevelBadge';
import { practiceLink, resultPracticeLink, roundPercent, toPercent } from '../assessments/performance';
import { ResultReview } from './ResultReview';

export function ResultSummary({
  result,
  title,
  focusHeading = false,
}: {
  result: Result;
  title: string;
  focusHeading?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  const exact = toPercent(result.score ?? result.percentage);
  const link = practiceLink(result.assessmentId, exact);
  const byResult = resultPracticeLink(result.id, 'student');
  return (
    <>
      <Card className="shadow-sm text-center" as="section" aria-labelledby="result-heading">
        <Card.Body className="p-5">
          <h1
            id="result-heading"
            className="h3"
            tabIndex={-1}
            ref={heading}
            aria-describedby="result-score-line result-level-line"
          >
            {title}
          </h1>
          <p id="result-score-line" className="display-4 fw-bold mb-1" data-testid="result-score">
            {roundPercent(exact)}%
          </p>
          <p id="result-level-line" className="mb-3">
            Performance level: <LevelBadge level={result.performanceLevel} testId="result-level" />
          </p>
          <p className="text-body-secondary">
            {result.correctAnswers} correct · {result.incorrectAnswers} incorrect
          </p>
          <div className="d-flex flex-wrap gap-2 justify-content-center">
            <Link className="btn btn-primary" to={link.to}>
              {link.label}
            </Link>
            <Link className="btn btn-outline-primary" to={byResult.to}>
              {byResult.label}
            </Link>
            <Link className="btn btn-outline-secondary" to="/">
              Back to Dashboard
            </Link>
          </div>
        </Card.Body>
      </Card>
      {result.questions && result.questions.length > 0 && <ResultReview questions={result.questions} />}
    </>
  );
}

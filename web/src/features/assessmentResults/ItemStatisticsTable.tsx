// Per question: how many got it right (of the answers marked: one awaiting review is counted apart), how well it separates strong from weak results, and what
// was chosen (the correct option marked in words, not only in colour).
import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import type { ItemStatistics } from '../results';
import { sharePercent } from './charts/sharePercent';
import { ScrollRegion } from '../../components/ScrollRegion';

function discrimination(value: number | null): string {
  return value === null ? '—' : value.toFixed(2);
}

function OptionCounts({ item }: { item: ItemStatistics }) {
  if (item.optionCounts.length === 0) return <span className="text-body-secondary">No answers</span>;
  // Reduced answer choices: some students were not shown every option (the key always is, so the
  // most any option was shown to is every marked result); an option shown to fewer says to how many.
  const everyone = Math.max(...item.optionCounts.map((o) => o.shownTo));
  return (
    <ul className="list-unstyled mb-0">
      {item.optionCounts.map((o) => (
        <li key={o.option} className={o.correct ? 'fw-semibold' : undefined}>
          {o.option}: {o.count}
          {item.answered > 0 && ` (${Math.round((o.count / item.answered) * 100)}%)`}
          {o.shownTo < everyone && (
            <span className="small text-body-secondary">
              {' '}
              · {o.count} of {o.shownTo} who saw it
            </span>
          )}
          {o.correct && (
            <Badge bg="success" className="ms-1">
              ✓ Correct answer
            </Badge>
          )}
        </li>
      ))}
    </ul>
  );
}

export function ItemStatisticsTable({ questions }: { questions: ItemStatistics[] }) {
  if (questions.length === 0) return <p className="text-body-secondary mb-0">This assessment has no questions.</p>;
  return (
    // Scrolls sideways on a phone: a region a keyboard can reach (ScrollRegion).
    <ScrollRegion label="Item Statistics">
      <Table className="align-top mb-0">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Question</th>
            <th scope="col">Answered</th>
            <th scope="col">Share correct</th>
            <th scope="col">
              <abbr title="Upper-lower discrimination index, -1 to 1: how much better the top results did on this question than the bottom ones">
                Discrimination
              </abbr>
            </th>
            <th scope="col">Choices</th>
          </tr>
        </thead>
        <tbody>
          {[...questions]
            .sort((a, b) => a.position - b.position)
            .map((q) => {
              const share = sharePercent(q.shareCorrect);
              return (
                <tr key={q.id} data-testid={`item-${q.position}`}>
                  <th scope="row">Q{q.position}</th>
                  <td>{q.questionText}</td>
                  <td>{q.answered}</td>
                  <td>
                    {share === null ? '—' : `${share}%`}
                    {/* Waiting answers are neither right nor wrong yet: out of the share until marked. */}
                    {q.awaitingReview > 0 && (
                      <div className="small text-body-secondary" data-testid={`item-${q.position}-awaiting`}>
                        {q.awaitingReview} awaiting review
                      </div>
                    )}
                  </td>
                  <td>{discrimination(q.discrimination)}</td>
                  <td>
                    <OptionCounts item={q} />
                  </td>
                </tr>
              );
            })}
        </tbody>
      </Table>
    </ScrollRegion>
  );
}

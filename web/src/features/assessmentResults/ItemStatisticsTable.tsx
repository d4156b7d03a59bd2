// Per question: how many got it right (of the answers marked: one awaiting review is counted apart), how well it separates strong from weak results, and what
// was chosen (the correct option marked in words, not only in colour).
import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import type { ItemStatistics } from '../results';
import { sharePercent } from './charts/sharePercent';
import { ScrollRegion } from '../../components/ScrollRegion';
import { useTranslation } from '../../i18n/react';
import { formatNumber, formatPercent } from '../../i18n/format';

function discrimination(value: number | null): string {
  return value === null ? '—' : formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function OptionCounts({ item }: { item: ItemStatistics }) {
  const { t } = useTranslation('results');
  if (item.optionCounts.length === 0) return <span className="text-body-secondary">{t('items.noAnswers')}</span>;
  // Reduced answer choices: some students were not shown every option (the key always is, so the
  // most any option was shown to is every marked result); an option shown to fewer says to how many.
  const everyone = Math.max(...item.optionCounts.map((o) => o.shownTo));
  return (
    <ul className="list-unstyled mb-0">
      {item.optionCounts.map((o) => (
        <li key={o.option} className={o.correct ? 'fw-semibold' : undefined}>
          {o.option}: {o.count}
          {item.answered > 0 && ` (${formatPercent((o.count / item.answered) * 100)})`}
          {o.shownTo < everyone && (
            <span className="small text-body-secondary">
              {' '}
              · {t('items.ofWhoSaw', { chose: o.count, shownTo: o.shownTo })}
            </span>
          )}
          {o.correct && (
            <Badge bg="success" className="ms-1">
              ✓ {t('items.correctAnswer')}
            </Badge>
          )}
        </li>
      ))}
    </ul>
  );
}

export function ItemStatisticsTable({ questions }: { questions: ItemStatistics[] }) {
  const { t } = useTranslation('results');
  if (questions.length === 0) return <p className="text-body-secondary mb-0">{t('items.empty')}</p>;
  return (
    // Scrolls sideways on a phone: a region a keyboard can reach (ScrollRegion).
    <ScrollRegion label={t('page.itemStatistics')}>
      <Table className="align-top mb-0">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('items.question')}</th>
            <th scope="col">{t('items.answered')}</th>
            <th scope="col">{t('items.shareCorrect')}</th>
            <th scope="col">
              <abbr title={t('items.discriminationHelp')}>{t('items.discrimination')}</abbr>
            </th>
            <th scope="col">{t('items.choices')}</th>
          </tr>
        </thead>
        <tbody>
          {[...questions]
            .sort((a, b) => a.position - b.position)
            .map((q) => {
              const share = sharePercent(q.shareCorrect);
              return (
                <tr key={q.id} data-testid={`item-${q.position}`}>
                  <th scope="row">{t('questionShort', { position: q.position })}</th>
                  <td>{q.questionText}</td>
                  <td>{q.answered}</td>
                  <td>
                    {share === null ? '—' : formatPercent(share)}
                    {/* Waiting answers are neither right nor wrong yet: out of the share until marked. */}
                    {q.awaitingReview > 0 && (
                      <div className="small text-body-secondary" data-testid={`item-${q.position}-awaiting`}>
                        {t('items.awaitingReview', { count: q.awaitingReview })}
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

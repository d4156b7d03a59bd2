// One bank item as a teacher previews it: the question, its options with the key marked (or the
// accepted answers), and what it is found by (type, subject, grade, topic, standards, who shared it).
import Badge from 'react-bootstrap/Badge';
import { formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';
import type { BankItem } from './bankApi';

export function BankItemPreview({ item }: { item: BankItem }) {
  const { t } = useTranslation('bank');
  const answers =
    item.questionType === 'short_answer' ? [item.correctAnswer, ...item.acceptedAnswers].join(' · ') : undefined;
  const codes = item.standards.map((s) => s.code);
  return (
    <div>
      <p className="mb-2 fw-semibold">{item.questionText}</p>
      {item.options.length > 0 && (
        <ul className="mb-2 small" aria-label={t('bank.preview.options')}>
          {item.options.map((o, i) => (
            <li key={i} className={o === item.correctAnswer ? 'fw-semibold text-success' : undefined}>
              {o}
              {o === item.correctAnswer && <span className="visually-hidden"> {t('bank.preview.correct')}</span>}
              {o === item.correctAnswer && <span aria-hidden="true"> ✓</span>}
            </li>
          ))}
        </ul>
      )}
      {answers !== undefined && <p className="small mb-2">{t('bank.preview.answer', { answers })}</p>}
      <p className="d-flex flex-wrap gap-1 mb-0 small">
        <Badge bg="secondary">{t(`bank.type.${item.questionType}`)}</Badge>
        {item.subject && (
          <Badge bg="light" text="dark">
            {item.subject}
          </Badge>
        )}
        {item.grade && (
          <Badge bg="light" text="dark">
            {t('bank.preview.grade', { grade: item.grade })}
          </Badge>
        )}
        {item.topic && (
          <Badge bg="light" text="dark">
            {item.topic}
          </Badge>
        )}
        {(codes.length > 0 ? codes : item.standard ? [item.standard] : []).map((c) => (
          <Badge key={c} bg="info" text="dark">
            {c}
          </Badge>
        ))}
        <Badge bg={item.visibility === 'private' ? 'dark' : 'primary'}>{t(`bank.visibility.${item.visibility}`)}</Badge>
        <span className="text-body-secondary">
          {t('bank.preview.points', { count: item.points, points: formatNumber(item.points) })} ·{' '}
          {item.mine
            ? t('bank.preview.mine')
            : t('bank.preview.sharedBy', { name: item.author.name || t('bank.colleague') })}
        </span>
      </p>
    </div>
  );
}

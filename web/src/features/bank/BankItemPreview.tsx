// One bank item as a teacher previews it: the question, its options with the key marked (or the
// accepted answers), and what it is found by (type, subject, grade, topic, standards, who shared it).
import Badge from 'react-bootstrap/Badge';
import { TYPE_LABELS, VISIBILITY_LABELS, type BankItem } from './bankApi';

export function BankItemPreview({ item }: { item: BankItem }) {
  const answers =
    item.questionType === 'short_answer' ? [item.correctAnswer, ...item.acceptedAnswers].join(' · ') : undefined;
  const codes = item.standards.map((s) => s.code);
  return (
    <div>
      <p className="mb-2 fw-semibold">{item.questionText}</p>
      {item.options.length > 0 && (
        <ul className="mb-2 small" aria-label="Options">
          {item.options.map((o, i) => (
            <li key={i} className={o === item.correctAnswer ? 'fw-semibold text-success' : undefined}>
              {o}
              {o === item.correctAnswer && <span className="visually-hidden"> (correct)</span>}
              {o === item.correctAnswer && <span aria-hidden="true"> ✓</span>}
            </li>
          ))}
        </ul>
      )}
      {answers !== undefined && <p className="small mb-2">Answer: {answers}</p>}
      <p className="d-flex flex-wrap gap-1 mb-0 small">
        <Badge bg="secondary">{TYPE_LABELS[item.questionType]}</Badge>
        {item.subject && (
          <Badge bg="light" text="dark">
            {item.subject}
          </Badge>
        )}
        {item.grade && (
          <Badge bg="light" text="dark">
            Grade {item.grade}
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
        <Badge bg={item.visibility === 'private' ? 'dark' : 'primary'}>{VISIBILITY_LABELS[item.visibility]}</Badge>
        <span className="text-body-secondary">
          {item.points} pt{item.points === 1 ? '' : 's'} ·{' '}
          {item.mine ? 'saved by you' : `shared by ${item.author.name || 'a colleague'}`}
        </span>
      </p>
    </div>
  );
}

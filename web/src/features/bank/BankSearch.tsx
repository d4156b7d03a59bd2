// The bank's search: words and filters (type, subject, grade, standard, visibility, only mine), a
// page of items at a time with a preview of each. The Bank page lists them with their actions;
// "Add from bank" on the edit page lets the teacher tick them (`renderAction`).
import { useState, type FormEvent, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useTranslation } from '../../i18n/react';
import { BankItemPreview } from './BankItemPreview';
import { QUESTION_TYPES, VISIBILITIES, useSearchBankQuery, type BankItem, type BankSearchArgs } from './bankApi';

const PAGE_SIZE = 10;

type Filters = Omit<BankSearchArgs, 'page' | 'pageSize'>;

const EMPTY = { q: '', type: '', subject: '', grade: '', standard: '', visibility: '', mine: false };

/** The form's values as the search's arguments: empty fields left out. */
function toArgs(v: typeof EMPTY): Filters {
  const args: Filters = {};
  if (v.q.trim()) args.q = v.q.trim();
  if (v.type) args.type = v.type as Filters['type'];
  if (v.subject.trim()) args.subject = v.subject.trim();
  if (v.grade.trim()) args.grade = v.grade.trim();
  if (v.standard.trim()) args.standard = v.standard.trim();
  if (v.visibility) args.visibility = v.visibility as Filters['visibility'];
  if (v.mine) args.scope = 'mine';
  return args;
}

export function BankSearch({
  idPrefix,
  renderAction,
}: {
  idPrefix: string;
  /** What each item offers besides its preview (a delete button, a tick box). */
  renderAction?: (item: BankItem) => ReactNode;
}) {
  const { t } = useTranslation('bank');
  const [form, setForm] = useState(EMPTY);
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const result = useSearchBankQuery({ ...filters, page, pageSize: PAGE_SIZE });
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  const id = (name: string) => `${idPrefix}-${name}`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilters(toArgs(form));
    setPage(1);
  };

  const items = result.data?.items ?? [];
  return (
    <>
      <Form role="search" aria-label={t('bank.search.form')} onSubmit={submit} className="mb-3">
        <Row className="g-2 align-items-end">
          <Col xs={12} md={6}>
            <Form.Label htmlFor={id('q')}>{t('bank.search.words')}</Form.Label>
            <Form.Control
              id={id('q')}
              type="search"
              value={form.q}
              onChange={set('q')}
              placeholder={t('bank.search.wordsHint')}
            />
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor={id('type')}>{t('bank.search.type')}</Form.Label>
            <Form.Select id={id('type')} value={form.type} onChange={set('type')}>
              <option value="">{t('bank.search.anyType')}</option>
              {QUESTION_TYPES.map((value) => (
                <option key={value} value={value}>
                  {t(`bank.type.${value}`)}
                </option>
              ))}
            </Form.Select>
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor={id('visibility')}>{t('bank.search.sharedWith')}</Form.Label>
            <Form.Select id={id('visibility')} value={form.visibility} onChange={set('visibility')}>
              <option value="">{t('bank.search.anyone')}</option>
              {VISIBILITIES.map((value) => (
                <option key={value} value={value}>
                  {t(`bank.visibility.${value}`)}
                </option>
              ))}
            </Form.Select>
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor={id('subject')}>{t('bank.label.subject')}</Form.Label>
            <Form.Control id={id('subject')} value={form.subject} onChange={set('subject')} />
          </Col>
          <Col xs={6} md={2}>
            <Form.Label htmlFor={id('grade')}>{t('bank.label.grade')}</Form.Label>
            <Form.Control id={id('grade')} value={form.grade} onChange={set('grade')} />
          </Col>
          <Col xs={12} md={4}>
            <Form.Label htmlFor={id('standard')}>{t('bank.label.standard')}</Form.Label>
            <Form.Control
              id={id('standard')}
              value={form.standard}
              onChange={set('standard')}
              placeholder={t('bank.search.standardHint')}
            />
          </Col>
          <Col xs={12} md={3} className="d-flex gap-2 align-items-center">
            <Form.Check
              id={id('mine')}
              label={t('bank.search.mine')}
              checked={form.mine}
              onChange={(e) => setForm({ ...form, mine: e.target.checked })}
            />
            <Button type="submit" className="ms-auto">
              {t('bank.search.submit')}
            </Button>
          </Col>
        </Row>
      </Form>
      {result.isLoading ? (
        <PageSpinner />
      ) : result.isError ? (
        <Alert variant="danger">{serverMessageOr(result.error, t('bank.search.failed'))}</Alert>
      ) : items.length === 0 ? (
        <p className="text-body-secondary" data-testid="bank-empty">
          {page === 1 ? t('bank.search.empty') : t('bank.search.noMore')}
        </p>
      ) : (
        <ul className="list-unstyled mb-3" aria-label={t('bank.search.items')}>
          {items.map((item) => (
            <li key={item.id}>
              <Card className="shadow-sm mb-2">
                <Card.Body className="d-flex gap-3">
                  <div className="flex-grow-1">
                    <BankItemPreview item={item} />
                  </div>
                  {renderAction?.(item)}
                </Card.Body>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label={t('bank.search.pages')} className="d-flex align-items-center gap-2">
        <Button variant="outline-secondary" size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
          {t('bank.search.previous')}
        </Button>
        <span className="small">{t('bank.search.page', { page })}</span>
        <Button
          variant="outline-secondary"
          size="sm"
          disabled={!result.data?.hasMore}
          onClick={() => setPage(page + 1)}
        >
          {t('bank.search.next')}
        </Button>
      </nav>
    </>
  );
}

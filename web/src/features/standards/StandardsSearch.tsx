// Searching the district's catalogue: by code prefix or words of the statement, with grade and
// subject filters (GET /api/standards/search); the type-ahead waits for a pause in typing.
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { useTranslation } from '../../i18n/react';
import { TYPE_AHEAD_MS } from './StandardsPicker';
import { useSearchStandardsQuery } from './standardsApi';

export function StandardsSearch({ subjects }: { subjects: readonly string[] }) {
  const { t } = useTranslation('bank');
  const [text, setText] = useState('');
  const [grade, setGrade] = useState('');
  const [subject, setSubject] = useState('');
  const [args, setArgs] = useState({ q: '', grade: '' });

  useEffect(() => {
    const timer = setTimeout(() => setArgs({ q: text.trim(), grade: grade.trim() }), TYPE_AHEAD_MS);
    return () => clearTimeout(timer);
  }, [text, grade]);

  const asked = args.q !== '' || args.grade !== '' || subject !== '';
  const search = useSearchStandardsQuery(
    { q: args.q, limit: 50, ...(args.grade ? { grade: args.grade } : {}), ...(subject ? { subject } : {}) },
    { skip: !asked },
  );
  const items = search.data ?? [];

  return (
    <Card className="shadow-sm mb-4" as="section" aria-labelledby="standards-search-title">
      <Card.Body>
        <Card.Title as="h2" className="h5" id="standards-search-title">
          {t('standards.search.title')}
        </Card.Title>
        <Form onSubmit={(e) => e.preventDefault()} role="search" aria-label={t('standards.search.form')}>
          <Row className="g-2 mb-3">
            <Col md={6}>
              <Form.Group controlId="standards-search-q">
                <Form.Label>{t('standards.search.words')}</Form.Label>
                <Form.Control
                  type="search"
                  placeholder={t('standards.search.wordsHint')}
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                />
              </Form.Group>
            </Col>
            <Col xs={6} md={2}>
              <Form.Group controlId="standards-search-grade">
                <Form.Label>{t('bank.label.grade')}</Form.Label>
                <Form.Control
                  type="text"
                  placeholder={t('standards.search.gradeHint')}
                  value={grade}
                  onChange={(e) => setGrade(e.target.value)}
                />
              </Form.Group>
            </Col>
            <Col xs={6} md={4}>
              <Form.Group controlId="standards-search-subject">
                <Form.Label>{t('bank.label.subject')}</Form.Label>
                <Form.Select value={subject} onChange={(e) => setSubject(e.target.value)}>
                  <option value="">{t('standards.search.allSubjects')}</option>
                  {subjects.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Col>
          </Row>
        </Form>
        <div aria-live="polite">
          {!asked ? (
            <p className="text-body-secondary mb-0">{t('standards.search.prompt')}</p>
          ) : search.isError ? (
            <Alert variant="danger" className="mb-0">
              {serverMessageOr(search.error, t('standards.search.failed'))}
            </Alert>
          ) : search.isFetching && items.length === 0 ? (
            <p className="text-body-secondary mb-0">{t('standards.search.searching')}</p>
          ) : items.length === 0 ? (
            <p className="text-body-secondary mb-0">{t('standards.search.none')}</p>
          ) : (
            <Table size="sm" responsive className="mb-0 align-middle" aria-label={t('standards.search.found')}>
              <thead>
                <tr>
                  <th scope="col">{t('standards.search.code')}</th>
                  <th scope="col">{t('standards.search.statement')}</th>
                  <th scope="col">{t('standards.search.grades')}</th>
                  <th scope="col">{t('standards.frameworks.framework')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((s) => (
                  <tr key={s.identifier}>
                    <th scope="row" className="text-nowrap">
                      {s.code}
                    </th>
                    <td>{s.statement}</td>
                    <td>{s.educationLevels.join(', ')}</td>
                    <td>{s.frameworkTitle}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}

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
import { TYPE_AHEAD_MS } from './StandardsPicker';
import { useSearchStandardsQuery } from './standardsApi';

export function StandardsSearch({ subjects }: { subjects: readonly string[] }) {
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
          Search standards
        </Card.Title>
        <Form onSubmit={(e) => e.preventDefault()} role="search" aria-label="Standards">
          <Row className="g-2 mb-3">
            <Col md={6}>
              <Form.Group controlId="standards-search-q">
                <Form.Label>Code or words</Form.Label>
                <Form.Control
                  type="search"
                  placeholder="e.g. 6.RP or ratio"
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                />
              </Form.Group>
            </Col>
            <Col xs={6} md={2}>
              <Form.Group controlId="standards-search-grade">
                <Form.Label>Grade</Form.Label>
                <Form.Control
                  type="text"
                  placeholder="e.g. 06, KG"
                  value={grade}
                  onChange={(e) => setGrade(e.target.value)}
                />
              </Form.Group>
            </Col>
            <Col xs={6} md={4}>
              <Form.Group controlId="standards-search-subject">
                <Form.Label>Subject</Form.Label>
                <Form.Select value={subject} onChange={(e) => setSubject(e.target.value)}>
                  <option value="">All subjects</option>
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
            <p className="text-body-secondary mb-0">Type a code or words to find standards.</p>
          ) : search.isError ? (
            <Alert variant="danger" className="mb-0">
              {serverMessageOr(search.error, 'The standards could not be searched')}
            </Alert>
          ) : search.isFetching && items.length === 0 ? (
            <p className="text-body-secondary mb-0">Searching…</p>
          ) : items.length === 0 ? (
            <p className="text-body-secondary mb-0">No standards match.</p>
          ) : (
            <Table size="sm" responsive className="mb-0 align-middle" aria-label="Standards found">
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Statement</th>
                  <th scope="col">Grades</th>
                  <th scope="col">Framework</th>
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

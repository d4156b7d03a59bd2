// An assessment given to several classes: each class's submissions and average, and the choice of
// which class's students the table below shows (all together by default).
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { AssessmentResults } from '../results';
import { useTranslation } from '../../i18n/react';
import { formatPercent } from '../../i18n/format';

type ClassRow = AssessmentResults['classes'][number];

export const ALL_CLASSES = '';

export function ClassesCard({
  classes,
  shown,
  onShow,
}: {
  classes: ClassRow[];
  shown: string;
  onShow: (classId: string) => void;
}) {
  const { t } = useTranslation('results');
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="classes-title">
      <Card.Body>
        <h2 id="classes-title" className="h5">
          {t('byClass.title')}
        </h2>
        <Table responsive className="align-middle mb-3">
          <thead>
            <tr>
              <th scope="col">{t('table.class')}</th>
              <th scope="col">{t('page.submitted')}</th>
              <th scope="col">{t('page.averageScore')}</th>
            </tr>
          </thead>
          <tbody>
            {classes.map((c) => (
              <tr key={c.classId}>
                <th scope="row" className="fw-normal">
                  {c.className || t('deletedClass')}
                </th>
                <td>
                  {c.submitted} / {c.classSize}
                </td>
                <td>{c.averageScore === null ? '—' : formatPercent(c.averageScore, 2)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        <Form.Group controlId="results-class" className="d-flex flex-wrap align-items-center gap-2">
          <Form.Label className="mb-0 fw-semibold">{t('byClass.show')}</Form.Label>
          <Form.Select value={shown} onChange={(e) => onShow(e.target.value)} className="w-auto">
            <option value={ALL_CLASSES}>{t('byClass.all')}</option>
            {classes.map((c) => (
              <option key={c.classId} value={c.classId}>
                {c.className || t('deletedClass')}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </Card.Body>
    </Card>
  );
}

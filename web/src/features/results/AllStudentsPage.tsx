// /students: four stat cards over every student in scope, then the tabs
// 'All Students' (searchable by name, paged) and 'By Class' (one class's students, same cards).
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { StudentCard } from './StudentCard';
import { useGetStudentsOverviewQuery, type StudentsOverview, type StudentsQuery } from './resultsApi';
import { StatCard } from '../../components/StatCard';
import { ClassPicker } from '../classes';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';
import { formatNumber } from '../../i18n/format';

export const PAGE_SIZE = 24;
const SEARCH_DELAY_MS = 300;

/** Arguments built the same way everywhere, so the first unfiltered page is one shared cache entry. */
function studentsQuery(classId: string | undefined, search: string, page: number): StudentsQuery {
  const q: StudentsQuery = { limit: PAGE_SIZE };
  if (classId) q.classId = classId;
  if (search) q.search = search;
  if (page > 0) q.offset = page * PAGE_SIZE;
  return q;
}

function Stats({ stats }: { stats: StudentsOverview['stats'] }) {
  const { t } = useTranslation('results');
  const label = useLabel();
  return (
    <Row xs={1} sm={2} lg={4} className="g-3 mb-4">
      <StatCard label={t('students.total')} testId="stat-Total Students" value={stats.totalStudents} />
      {/* Students by the 80/60 band of their average, not by the level of any one result. */}
      <StatCard
        label={label('Above Standard')}
        testId="stat-Above Standard"
        value={stats.aboveStandard}
        note={t('students.aboveNote')}
        tone="success"
      />
      <StatCard
        label={label('At Standard')}
        testId="stat-At Standard"
        value={stats.atStandard}
        note={t('students.atNote')}
        tone="warning"
      />
      <StatCard
        label={label('Below Standard')}
        testId="stat-Below Standard"
        value={stats.belowStandard}
        note={t('students.belowNote')}
        tone="danger"
      />
    </Row>
  );
}

function Pager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTranslation('results');
  const from = page * PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * PAGE_SIZE);
  return (
    <nav className="d-flex flex-wrap align-items-center gap-2 mt-4" aria-label={t('students.pages')}>
      <span className="text-body-secondary small flex-grow-1">
        {t('students.showing', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })}
      </span>
      <Button variant="outline-secondary" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {t('students.previous')}
      </Button>
      <Button variant="outline-secondary" size="sm" disabled={to >= total} onClick={() => onPage(page + 1)}>
        {t('students.next')}
      </Button>
    </nav>
  );
}

/** Students of the whole scope or of one class: search by name, one page at a time. */
function StudentList({ classId, emptyText }: { classId?: string; emptyText: string }) {
  const { t } = useTranslation('results');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);

  useEffect(() => {
    const trimmed = typed.trim();
    if (trimmed === search) return;
    const timer = setTimeout(() => {
      setSearch(trimmed);
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search]);

  // currentData: never the cards of another page or search while the next one loads.
  const { currentData, error } = useGetStudentsOverviewQuery(studentsQuery(classId, search, page));

  let body;
  if (currentData) {
    const { students, total } = currentData;
    body =
      students.length === 0 ? (
        <p className="text-body-secondary py-4 text-center mb-0">
          {search ? t('students.noMatch', { search }) : emptyText}
        </p>
      ) : (
        <>
          <Row xs={1} md={2} xl={3} className="g-3">
            {students.map((s) => (
              <Col key={s.id}>
                <StudentCard student={s} />
              </Col>
            ))}
          </Row>
          {total > PAGE_SIZE && <Pager page={page} total={total} onPage={setPage} />}
        </>
      );
  } else if (error) {
    body = <Alert variant="danger">{serverMessageOr(error, t('students.loadFailed'))}</Alert>;
  } else {
    body = <PageSpinner />;
  }

  return (
    <>
      <Form.Control
        type="search"
        className="mb-3"
        style={{ maxWidth: 360 }}
        placeholder={t('students.search')}
        aria-label={t('students.searchLabel')}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      {body}
    </>
  );
}

function ByClass({ classes }: { classes: StudentsOverview['classes'] }) {
  const { t } = useTranslation('results');
  const [classId, setClassId] = useState(classes[0]?.id ?? '');
  if (classes.length === 0)
    return <p className="text-body-secondary py-4 text-center mb-0">{t('students.noClasses')}</p>;
  return (
    <>
      <ClassPicker id="students-class" classes={classes} value={classId} onChange={setClassId} className="mb-3" />
      {/* A fresh list per class: search and page start over. */}
      <StudentList key={classId} classId={classId} emptyText={t('noStudentsInClass')} />
    </>
  );
}

export function AllStudentsPage() {
  const { t } = useTranslation('results');
  const [tab, setTab] = useState('all');
  // The unfiltered first page: the stat cards and the class list (the All tab starts on the same entry).
  const { data: overview, error } = useGetStudentsOverviewQuery(studentsQuery(undefined, '', 0));

  return (
    <>
      <div className="mb-4">
        <h1 className="h2 mb-1">{t('students.title')}</h1>
        <p className="text-body-secondary mb-0">{t('students.subtitle')}</p>
      </div>
      {overview ? (
        <>
          <Stats stats={overview.stats} />
          <Tabs id="students-tabs" activeKey={tab} onSelect={(k) => setTab(k ?? 'all')} mountOnEnter className="mb-3">
            <Tab eventKey="all" title={t('students.title')}>
              <StudentList emptyText={t('students.empty')} />
            </Tab>
            <Tab eventKey="class" title={t('byClass.title')}>
              <ByClass classes={overview.classes} />
            </Tab>
          </Tabs>
        </>
      ) : error ? (
        <Alert variant="danger">{serverMessageOr(error, t('students.loadFailed'))}</Alert>
      ) : (
        <PageSpinner />
      )}
    </>
  );
}

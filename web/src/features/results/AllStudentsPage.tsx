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
  return (
    <Row xs={1} sm={2} lg={4} className="g-3 mb-4">
      <StatCard label="Total Students" value={stats.totalStudents} />
      {/* Students by the 80/60 band of their average, not by the level of any one result. */}
      <StatCard
        label="Above Standard"
        value={stats.aboveStandard}
        note="students averaging 80% or more"
        tone="success"
      />
      <StatCard label="At Standard" value={stats.atStandard} note="students averaging 60-79%" tone="warning" />
      <StatCard label="Below Standard" value={stats.belowStandard} note="students averaging under 60%" tone="danger" />
    </Row>
  );
}

function Pager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const from = page * PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * PAGE_SIZE);
  return (
    <nav className="d-flex flex-wrap align-items-center gap-2 mt-4" aria-label="Student pages">
      <span className="text-body-secondary small flex-grow-1">
        Showing {from}–{to} of {total}
      </span>
      <Button variant="outline-secondary" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Button variant="outline-secondary" size="sm" disabled={to >= total} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** Students of the whole scope or of one class: search by name, one page at a time. */
function StudentList({ classId, emptyText }: { classId?: string; emptyText: string }) {
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
          {search ? `No students match "${search}".` : emptyText}
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
    body = <Alert variant="danger">{serverMessageOr(error, 'Failed to load students')}</Alert>;
  } else {
    body = <PageSpinner />;
  }

  return (
    <>
      <Form.Control
        type="search"
        className="mb-3"
        style={{ maxWidth: 360 }}
        placeholder="Search by name"
        aria-label="Search students by name"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      {body}
    </>
  );
}

function ByClass({ classes }: { classes: StudentsOverview['classes'] }) {
  const [classId, setClassId] = useState(classes[0]?.id ?? '');
  if (classes.length === 0) return <p className="text-body-secondary py-4 text-center mb-0">No classes yet.</p>;
  return (
    <>
      <ClassPicker id="students-class" classes={classes} value={classId} onChange={setClassId} className="mb-3" />
      {/* A fresh list per class: search and page start over. */}
      <StudentList key={classId} classId={classId} emptyText="No students in this class yet." />
    </>
  );
}

export function AllStudentsPage() {
  const [tab, setTab] = useState('all');
  // The unfiltered first page: the stat cards and the class list (the All tab starts on the same entry).
  const { data: overview, error } = useGetStudentsOverviewQuery(studentsQuery(undefined, '', 0));

  return (
    <>
      <div className="mb-4">
        <h1 className="h2 mb-1">All Students</h1>
        <p className="text-body-secondary mb-0">Averages and recent results of the students in your classes</p>
      </div>
      {overview ? (
        <>
          <Stats stats={overview.stats} />
          <Tabs id="students-tabs" activeKey={tab} onSelect={(k) => setTab(k ?? 'all')} mountOnEnter className="mb-3">
            <Tab eventKey="all" title="All Students">
              <StudentList emptyText="No students yet. Students appear here once they join one of your classes." />
            </Tab>
            <Tab eventKey="class" title="By Class">
              <ByClass classes={overview.classes} />
            </Tab>
          </Tabs>
        </>
      ) : error ? (
        <Alert variant="danger">{serverMessageOr(error, 'Failed to load students')}</Alert>
      ) : (
        <PageSpinner />
      )}
    </>
  );
}

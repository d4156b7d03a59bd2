// k6: a class-sized crowd taking one assessment through the gateway. Each VU is one seeded
// student: arrives within the first ARRIVAL_S seconds (a class does not click in the same
// millisecond), opens the assessment as the taking page does (the assessment, then its questions
// and the student's saved answers), saves an answer per question (sometimes changes it and saves
// again) with 0.5–1.5 s of think time between saves, then submits once. Run by bench/run.mjs,
// which seeds bench/.seed.json first (bench/seed.mjs), and runs it twice: a warm-up on the class's
// other assessment (PHASE=warmup), then the measured run.
import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { SharedArray } from 'k6/data';
import { Counter, Trend } from 'k6/metrics';

const SEED_FILE = __ENV.SEED_FILE || '../.seed.json';
const seed = JSON.parse(open(SEED_FILE));
const students = new SharedArray('students', () => JSON.parse(open(SEED_FILE)).students);
const BASE_URL = __ENV.BASE_URL || seed.baseUrl;
const VUS = Number(__ENV.VUS || students.length);
const CHANGE_RATE = 0.3; // share of questions answered twice (the student changes their mind)
const CORRECT_RATE = 0.6;
const ARRIVAL_S = Number(__ENV.ARRIVAL_S ?? 5);
// PHASE=warmup: the same students take the class's other assessment (bench/run.mjs, warm-up).
const target = __ENV.PHASE === 'warmup' ? seed.warmup : seed;
const SUBMIT_LOG = __ENV.SUBMIT_LOG === '1';

const openAssessment = new Trend('open_assessment', true);
const saveAnswer = new Trend('save_answer', true);
const submit = new Trend('submit', true);
const saveErrors = new Counter('save_answer_errors');
const submitErrors = new Counter('submit_errors');
const openErrors = new Counter('open_assessment_errors');

export const options = {
  scenarios: {
    class_crowd: {
      executor: 'per-vu-iterations',
      vus: VUS,
      iterations: 1,
      maxDuration: __ENV.MAX_DURATION || '3m',
      gracefulStop: '10s',
    },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(95)', 'p(99)', 'count'],
  // The targets; run.mjs reports them, failing only on errors.
  thresholds: {
    save_answer: ['p(99)<50'],
    submit: ['p(99)<150'],
    save_answer_errors: ['count==0'],
    submit_errors: ['count==0'],
    open_assessment_errors: ['count==0'],
  },
  noCookiesReset: true,
  insecureSkipTLSVerify: false,
};

const think = () => sleep(0.5 + Math.random());

function pickAnswer(q, avoid) {
  const wrong = q.options.filter((o) => o !== q.correctAnswer && o !== avoid);
  if (Math.random() < CORRECT_RATE && q.correctAnswer !== avoid) return q.correctAnswer;
  return wrong[Math.floor(Math.random() * wrong.length)] ?? q.options[0];
}

export default function () {
  if (exec.vu.idInTest > students.length) throw new Error('more VUs than seeded students');
  const student = students[exec.vu.idInTest - 1];
  const jar = http.cookieJar();
  jar.set(BASE_URL, 'cp_session', student.session);
  if (student.refresh) jar.set(BASE_URL, 'cp_refresh', student.refresh);
  jar.set(BASE_URL, 'cp_csrf', student.csrf);
  const params = (name) => ({
    headers: { 'content-type': 'application/json', 'x-csrf-token': student.csrf },
    tags: { name },
    responseType: 'none',
    timeout: '30s',
  });
  sleep(Math.random() * ARRIVAL_S);
  const opened = http.get(`${BASE_URL}/api/assessments/${target.assessmentId}`, params('open_assessment'));
  const [questions, answers] = http.batch([
    ['GET', `${BASE_URL}/api/assessments/${target.assessmentId}/questions`, null, params('open_assessment')],
    ['GET', `${BASE_URL}/api/assessments/${target.assessmentId}/responses`, null, params('open_assessment')],
  ]);
  for (const res of [opened, questions, answers]) {
    openAssessment.add(res.timings.duration);
    const ok = check(res, { 'open assessment is 2xx': (r) => r.status >= 200 && r.status < 300 });
    openErrors.add(ok ? 0 : 1, { status: String(res.status) });
  }

  let clientSeq = 0;
  const save = (q, answer) => {
    const res = http.post(
      `${BASE_URL}/api/responses`,
      JSON.stringify({ assessmentId: target.assessmentId, questionId: q.id, answer, clientSeq: ++clientSeq }),
      params('save_answer'),
    );
    saveAnswer.add(res.timings.duration);
    const ok = check(res, { 'save answer is 2xx': (r) => r.status >= 200 && r.status < 300 });
    saveErrors.add(ok ? 0 : 1, { status: String(res.status) });
  };

  for (const q of target.questions) {
    think();
    const first = pickAnswer(q);
    save(q, first);
    if (Math.random() < CHANGE_RATE) {
      think();
      save(q, pickAnswer(q, first));
    }
  }
  think();
  const res = http.post(
    `${BASE_URL}/api/results`,
    JSON.stringify({ assessmentId: target.assessmentId }),
    params('submit'),
  );
  submit.add(res.timings.duration);
  const ok = check(res, { 'submit is 2xx': (r) => r.status >= 200 && r.status < 300 });
  submitErrors.add(ok ? 0 : 1, { status: String(res.status) });
  // When the answer arrived, for the submit → visible-to-the-teacher delay (bench/visibility.mjs;
  // bench/run.mjs runs k6 with --console-output to a file and reads these lines).
  if (ok && SUBMIT_LOG) console.log(`submitted ${student.id} ${Date.now()}`);
}

export function handleSummary(data) {
  const out = __ENV.SUMMARY_FILE || 'summary.json';
  return { [out]: JSON.stringify(data, null, 2), stdout: `k6 summary written to ${out}\n` };
}

// A student's export as a document a parent can read (docs/adr/009-privacy-operations.md): the
// student's account, classes, assessments with score, level and every answer, and practice, in
// plain words, as one HTML page that prints well. Built from the same sections as the JSON file
// (the services' rows about the student and the names they refer to, analytics' `context`).
import { escapeHtml } from '@checkpoint/mail';

type Row = Record<string, unknown>;
export interface ExportSection {
  tables: Record<string, Row[]>;
  context?: Record<string, Row[]>;
}
export interface StudentExport {
  requestId: string;
  studentId: string;
  exportedAt: string;
  services: Record<string, ExportSection>;
}

const LEVELS: Record<string, string> = { below: 'Below Standard', at: 'At Standard', above: 'Above Standard' };

const esc = (v: unknown) => escapeHtml(String(v ?? ''));
const text = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const day = (v: unknown) => {
  const d = new Date(text(v));
  return Number.isNaN(d.getTime())
    ? ''
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
};
const points = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, ''));

/** The student's name as the export holds it (identity's users row). */
export function studentName(doc: StudentExport): { firstName: string; lastName: string } {
  const user = doc.services.identity?.tables.users?.[0] ?? {};
  return { firstName: text(user.first_name), lastName: text(user.last_name) };
}

/** "checkpoint-export-jane-doe-2026-11-28": the download's name, without extension. */
export function exportFileName(doc: StudentExport): string {
  const { firstName, lastName } = studentName(doc);
  const slug = `${firstName} ${lastName}`
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `checkpoint-export-${slug || 'student'}-${doc.exportedAt.slice(0, 10)}`;
}

interface Question {
  position: number;
  text: string;
  answer: string | null;
  correctAnswer: string;
  correct: boolean;
}

/** The HTML document. */
export function exportHtml(doc: StudentExport, districtName: string): string {
  const { firstName, lastName } = studentName(doc);
  const name = `${firstName} ${lastName}`.trim() || 'this student';
  const user = doc.services.identity?.tables.users?.[0] ?? {};
  const analytics = doc.services.analytics ?? { tables: {} };
  const context = analytics.context ?? {};
  const classes = new Map((context.classes ?? []).map((c) => [text(c.class_id), c]));
  const assessments = new Map((context.assessments ?? []).map((a) => [text(a.assessment_id), a]));
  const contextQuestions = context.questions ?? [];
  const className = (id: unknown) => text(classes.get(text(id))?.name) || 'a class no longer in Checkpoint';
  const title = (id: unknown) => text(assessments.get(text(id))?.title) || 'An assessment no longer in Checkpoint';

  // Classes: the student's memberships (class service), with the names analytics knows.
  const memberships = doc.services.class?.tables.memberships ?? analytics.tables.memberships ?? [];
  const classRows = memberships.map((m) => {
    const c = classes.get(text(m.class_id));
    return `<tr><td>${esc(className(m.class_id))}</td><td>${esc(c?.subject)}</td><td>${esc(c?.period)}</td><td>${esc(c?.teacher_name)}</td><td>${esc(day(m.joined_at))}</td></tr>`;
  });

  // Results: the assessment service's, each with the questions as they were scored.
  const results = doc.services.assessment?.tables.results ?? [];
  const analyticsAnswers = analytics.tables.result_answers ?? [];
  const resultBlocks = results.map((r) => {
    const recorded = Array.isArray(r.questions) ? (r.questions as Row[]) : [];
    const questions: Question[] = recorded.length
      ? recorded.map((q) => ({
          position: num(q.position),
          text: text(q.questionText),
          answer: q.answer === null || q.answer === undefined ? null : text(q.answer),
          correctAnswer: text(q.correctAnswer),
          correct: q.correct === true,
        }))
      : analyticsAnswers
          .filter((a) => text(a.result_id) === text(r.id))
          .map((a) => {
            const q = contextQuestions.find((c) => text(c.question_id) === text(a.question_id));
            return {
              position: num(q?.position ?? 0),
              text: text(q?.question_text) || 'A question no longer in Checkpoint',
              answer: text(a.answer),
              correctAnswer: text(q?.correct_answer),
              correct: a.correct === true,
            };
          });
    questions.sort((a, b) => a.position - b.position);
    const level = LEVELS[text(r.performance_level)] ?? text(r.performance_level);
    const rows = questions.map(
      (q, i) =>
        `<tr><td>${i + 1}</td><td>${esc(q.text)}</td><td>${q.answer === null || q.answer === '' ? '<em>No answer</em>' : esc(q.answer)}</td><td>${esc(q.correctAnswer)}</td><td>${q.correct ? 'Right' : 'Not right'}</td></tr>`,
    );
    return `<section class="result">
  <h3>${esc(title(r.assessment_id))}</h3>
  <p>${esc(className(r.class_id))} · submitted ${esc(day(r.submitted_at))}</p>
  <p class="score">Score: ${esc(points(num(r.earned_points)))} of ${esc(points(num(r.total_points)))} points (${Math.round(num(r.percentage))} %) · Level: <strong>${esc(level)}</strong></p>
  ${
    rows.length
      ? `<table><thead><tr><th>#</th><th>Question</th><th>${esc(firstName || 'The student')}’s answer</th><th>Correct answer</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '<p>The answers of this assessment are not kept any more.</p>'
  }
</section>`;
  });

  // Practice: analytics' completions per assessment and kind.
  const practice = (analytics.tables.practice_completions ?? []).map(
    (p) =>
      `<tr><td>${esc(title(p.assessment_id))}</td><td>${text(p.type) === 'enrichment' ? 'Challenge' : 'Support'}</td><td>${esc(p.attempts)}</td><td>${Math.round(num(p.best_score))} %</td><td>${esc(day(p.last_completed_at))}</td></tr>`,
  );

  // Everything else, counted by place, so the reader knows what the data file holds.
  const other: string[] = [];
  for (const [service, section] of Object.entries(doc.services))
    for (const [table, rows] of Object.entries(section.tables))
      other.push(
        `<li>${esc(service)} · ${esc(table.replace(/_/g, ' '))}: ${rows.length} record${rows.length === 1 ? '' : 's'}</li>`,
      );

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkpoint: the data of ${esc(name)}</title>
<style>
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; margin: 2rem auto; max-width: 52rem; padding: 0 1rem; }
  h1 { font-size: 1.8rem; margin-bottom: .25rem; } h2 { margin-top: 2rem; border-bottom: 2px solid #ccc; } h3 { margin-bottom: .25rem; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; } th, td { border: 1px solid #bbb; padding: .35rem .5rem; text-align: left; vertical-align: top; }
  th { background: #f0f0f0; } dt { font-weight: 600; } dd { margin: 0 0 .5rem; } .score { font-size: 1.05rem; }
  .result { break-inside: avoid; } .note { color: #444; }
  @media print { body { margin: 0; max-width: none; font-size: 11pt; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
</style>
</head>
<body>
<h1>The data Checkpoint holds about ${esc(name)}</h1>
<p class="note">Prepared for ${esc(districtName)} on ${esc(day(doc.exportedAt))}. Checkpoint is the assessment tool the school uses: teachers give short assessments and practice, and see how each student is doing. This document shows, in plain words, everything Checkpoint keeps about ${esc(firstName || 'the student')}. The data file that comes with it (JSON and CSV) holds the same records in full, for a computer to read.</p>

<h2>Account</h2>
<dl>
  <dt>Name</dt><dd>${esc(name)}</dd>
  <dt>Email address</dt><dd>${esc(user.email)}</dd>
  <dt>Role</dt><dd>Student</dd>
  <dt>Account created</dt><dd>${esc(day(user.created_at))}</dd>
</dl>

<h2>Classes</h2>
${classRows.length ? `<table><thead><tr><th>Class</th><th>Subject</th><th>Period</th><th>Teacher</th><th>Joined</th></tr></thead><tbody>${classRows.join('')}</tbody></table>` : '<p>No classes.</p>'}

<h2>Assessments</h2>
<p class="note">Levels: Above Standard from 90 %, At Standard from 80 %, Below Standard under 80 %. Completing support practice can raise a result to At Standard.</p>
${resultBlocks.length ? resultBlocks.join('\n') : '<p>No assessments submitted.</p>'}

<h2>Practice</h2>
${practice.length ? `<table><thead><tr><th>Assessment</th><th>Kind</th><th>Attempts</th><th>Best score</th><th>Last done</th></tr></thead><tbody>${practice.join('')}</tbody></table>` : '<p>No practice completed.</p>'}

<h2>All the records</h2>
<p class="note">Where each kind of record is kept, and how many there are (the data file lists each one).</p>
<ul>${other.join('')}</ul>
</body>
</html>
`;
}

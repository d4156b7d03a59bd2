// The notification digest's content (docs/architecture.md, "Notifications"): one mail per user
// and period listing everything their switches ask for. Pure: the job gathers the rows.
import { escapeHtml } from '@checkpoint/mail';

export interface SubmissionLine {
  studentName: string;
  assessmentId: string;
  assessmentTitle: string;
  className: string;
  percentage: number;
  level: string;
}

export interface JoinedLine {
  studentName: string;
  classId: string;
  className: string;
}

export interface AssignmentLine {
  assessmentId: string;
  assessmentTitle: string;
  className: string;
  dueAt: Date | null;
}

export interface DigestContent {
  firstName: string;
  submissions: SubmissionLine[];
  joined: JoinedLine[];
  assigned: AssignmentLine[];
  reminders: AssignmentLine[];
}

export interface DigestMail {
  subject: string;
  text: string;
  html: string;
}

/** Effective switches: a value never published means the Settings defaults (only submissions on). */
export function switchesOf(row: {
  email_notifications: boolean | null;
  assessment_reminders: boolean | null;
  student_submissions: boolean | null;
}) {
  return {
    emailNotifications: row.email_notifications ?? false,
    assessmentReminders: row.assessment_reminders ?? false,
    studentSubmissions: row.student_submissions ?? true,
  };
}

export const isEmpty = (c: DigestContent) =>
  c.submissions.length + c.joined.length + c.assigned.length + c.reminders.length === 0;

const LEVEL_TEXT: Record<string, string> = {
  below: 'Below Standard',
  at: 'At Standard',
  above: 'Above Standard',
};

/** Names and titles come from users: kept on one line, without control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

const score = (l: SubmissionLine) => `${Math.round(l.percentage)}% (${LEVEL_TEXT[l.level] ?? l.level})`;

const due = (d: Date | null) => (d ? ` — due ${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '');

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function digestSubject(c: DigestContent): string {
  const parts: string[] = [];
  if (c.submissions.length) parts.push(plural(c.submissions.length, 'new submission', 'new submissions'));
  if (c.joined.length) parts.push(plural(c.joined.length, 'student joined', 'students joined'));
  if (c.assigned.length) parts.push(plural(c.assigned.length, 'new assessment', 'new assessments'));
  if (c.reminders.length) parts.push(plural(c.reminders.length, 'assessment due soon', 'assessments due soon'));
  return `Checkpoint: ${parts.join(', ')}`;
}

/** The digest mail; `baseUrl` is the app's public origin (links open the right page). */
export function composeDigest(c: DigestContent, baseUrl: string): DigestMail {
  const base = baseUrl.replace(/\/+$/, '');
  type Section = { title: string; lines: { text: string; link: string }[] };
  const sections: Section[] = [];
  if (c.submissions.length)
    sections.push({
      title: 'New submissions in your classes',
      lines: c.submissions.map((l) => ({
        text: `${oneLine(l.studentName)} — ${oneLine(l.assessmentTitle)} (${oneLine(l.className)}): ${score(l)}`,
        link: `${base}/assessment-results/${l.assessmentId}`,
      })),
    });
  if (c.joined.length)
    sections.push({
      title: 'Students who joined your classes',
      lines: c.joined.map((l) => ({
        text: `${oneLine(l.studentName)} joined ${oneLine(l.className)}`,
        link: `${base}/class/${l.classId}`,
      })),
    });
  if (c.assigned.length)
    sections.push({
      title: 'New assessments for you',
      lines: c.assigned.map((l) => ({
        text: `${oneLine(l.assessmentTitle)} (${oneLine(l.className)})${due(l.dueAt)}`,
        link: `${base}/assessment/${l.assessmentId}`,
      })),
    });
  if (c.reminders.length)
    sections.push({
      title: 'Due within 24 hours and not yet submitted',
      lines: c.reminders.map((l) => ({
        text: `${oneLine(l.assessmentTitle)} (${oneLine(l.className)})${due(l.dueAt)}`,
        link: `${base}/assessment/${l.assessmentId}`,
      })),
    });
  const hello = `Hello ${oneLine(c.firstName) || 'there'},`;
  const footer = `You get this mail because of your notification settings: ${base}/settings`;
  const text = [
    hello,
    '',
    ...sections.flatMap((s) => [s.title + ':', ...s.lines.map((l) => `- ${l.text}\n  ${l.link}`), '']),
    footer,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(hello)}</p>`,
    ...sections.map(
      (s) =>
        `<h3>${escapeHtml(s.title)}</h3><ul>${s.lines
          .map((l) => `<li><a href="${escapeHtml(l.link)}">${escapeHtml(l.text)}</a></li>`)
          .join('')}</ul>`,
    ),
    `<p><small>You get this mail because of your <a href="${escapeHtml(`${base}/settings`)}">notification settings</a>.</small></p>`,
  ].join('\n');
  return { subject: digestSubject(c), text, html };
}

// The mail a teacher gets when a class's owner adds them as a co-teacher (issue 30, item 8): who
// added them, to which class, and the link to it. Pure: the consumer gathers the names.
import { escapeHtml } from '@checkpoint/mail';

export interface CoTeacherMailFacts {
  firstName: string;
  ownerName: string;
  className: string;
  classId: string;
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** How recent a ClassUpdated must be to mail (a topic replayed into an empty schema mails nobody). */
export const CO_TEACHER_MAIL_WITHIN_MS = 24 * 60 * 60_000;

export function composeCoTeacherMail(f: CoTeacherMailFacts, baseUrl: string) {
  const link = `${baseUrl.replace(/\/+$/, '')}/class/${f.classId}`;
  const owner = oneLine(f.ownerName) || 'A teacher of your school';
  const cls = oneLine(f.className);
  const hello = `Hello ${oneLine(f.firstName) || 'there'},`;
  const body = `${owner} added you as a co-teacher of ${cls}. You can now see the class, its students, assessments and results, and teach it with them.`;
  return {
    subject: `You are now a co-teacher of ${cls}`.slice(0, 200),
    text: [hello, '', body, '', `Open the class: ${link}`].join('\n'),
    html: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(body)}</p><p><a href="${escapeHtml(link)}">Open the class</a></p>`,
  };
}

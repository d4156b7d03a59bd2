import { describe, expect, it } from 'vitest';
import { composeDigest, switchesOf, type DigestContent } from './digest.ts';

const EMPTY: DigestContent = { firstName: 'Tess', submissions: [], joined: [], assigned: [], reminders: [] };

describe('composeDigest', () => {
  it('when names carry markup and line breaks, then the HTML escapes them and the text keeps one line each', () => {
    const mail = composeDigest(
      {
        ...EMPTY,
        submissions: [
          {
            studentName: '<b>Eve</b>\nBcc: x@y',
            assessmentId: 'a1',
            assessmentTitle: 'Fractions & "decimals"',
            className: 'Math',
            percentage: 66.67,
            level: 'at',
          },
        ],
      },
      'https://app.example/',
    );
    expect(mail.subject).toBe('Checkpoint: 1 new submission');
    expect(mail.text).toContain('- <b>Eve</b> Bcc: x@y — Fractions & "decimals" (Math): 67% (At Standard)');
    expect(mail.text).toContain('  https://app.example/assessment-results/a1');
    expect(mail.html).toContain('&lt;b&gt;Eve&lt;/b&gt; Bcc: x@y — Fractions &amp; &quot;decimals&quot;');
    expect(mail.html).not.toContain('<b>Eve');
  });

  it('when several kinds of news are there, then the subject names each with its count', () => {
    const line = { assessmentId: 'a', assessmentTitle: 'T', className: 'C', dueAt: new Date('2026-01-02T03:04:00Z') };
    const mail = composeDigest({ ...EMPTY, assigned: [line, line], reminders: [line] }, 'http://x');
    expect(mail.subject).toBe('Checkpoint: 2 new assessments, 1 assessment due soon');
    expect(mail.text).toContain('- T (C) — due 2026-01-02 03:04 UTC');
  });
});

describe('switchesOf', () => {
  it('when a switch was never published, then the Settings default applies (only submissions on)', () => {
    expect(switchesOf({ email_notifications: null, assessment_reminders: null, student_submissions: null })).toEqual({
      emailNotifications: false,
      assessmentReminders: false,
      studentSubmissions: true,
    });
    expect(switchesOf({ email_notifications: true, assessment_reminders: true, student_submissions: false })).toEqual({
      emailNotifications: true,
      assessmentReminders: true,
      studentSubmissions: false,
    });
  });
});

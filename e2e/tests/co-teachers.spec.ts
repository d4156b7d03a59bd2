// Co-teachers (issue 30, item 8): the owner of a class adds a teacher of the same district by email
// on the class page's Teachers section; the co-teacher finds the class on /classes (marked, no
// delete), opens it and reads its results; deleting it is refused to them (403). An address of the
// district without an account is invited (the district's mailed invitation): once accepted, its
// teacher co-teaches the class and reads an assessment given to it from another of the owner's
// classes (their students only), and its AI recommendations from its preview and results pages
// (written from their class's result only); an address the district does not invite shows as not invited and
// is withdrawn. A district assessment published to the owner's class is listed for its co-teacher,
// who assigns it there. Individual accounts: the co-teacher's results hold the co-taught class's,
// and another class of the owner's stays out of reach.
import { expect, type Page } from '@playwright/test';
import { mailedLink, pathOf, setPasswordByMail } from './mailbox';
import {
  apiGet,
  apiPost,
  checkA11y,
  signIn,
  csrfHeaders,
  newUser,
  pageInNewContext,
  signUp,
  test,
  wrongAnswer,
  type QuestionJson,
  type TestUser,
} from './helpers';

// The demo district (DEMO_SEED) owns this domain: sign-ups with it join it by the mailed link.
const DISTRICT_DOMAIN = 'demo.checkpoint.school';

const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Evaporation turns liquid water from lakes and oceans into water vapour when the sun heats it.',
  'Condensation happens when water vapour cools high in the sky and forms the droplets of clouds.',
  'Precipitation is water falling from clouds as rain, snow, sleet or hail.',
  'Runoff carries rain water over the ground into rivers that flow back to the sea.',
  'Plants release water vapour from their leaves in a process called transpiration.',
].join(' ');

const suffix = () => `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;

function districtUser(prefix: string, firstName: string): TestUser {
  const user = newUser(prefix);
  return {
    ...user,
    firstName,
    lastName: `${user.lastName}${suffix()}`,
    email: user.email.replace(/@.*$/, `@${DISTRICT_DOMAIN}`),
  };
}

async function waitForQuestions(teacher: Page, assessmentId: string): Promise<QuestionJson[]> {
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${assessmentId}`)).generationStatus,
      { timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe('ready');
  return apiGet<QuestionJson[]>(teacher, `/api/assessments/${assessmentId}/questions`);
}

test('the owner adds a co-teacher by email, who sees the class and its results but cannot delete it', async ({
  browser,
}) => {
  // The owner, with a class and an assigned assessment (through the API: setup).
  const owner = await pageInNewContext(browser);
  await signUp(owner, districtUser('coteach-owner', 'Olive'));
  const className = `Earth Science ${suffix()}`;
  const cls = await apiPost<{ id: string; joinCode: string }>(owner, '/api/classes', {
    name: className,
    subject: 'Science',
    period: '2',
  });
  const assessment = await apiPost<{ id: string }>(owner, '/api/assessments', {
    title: 'Water Cycle',
    classId: cls.id,
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: 2,
  });
  const questions = await waitForQuestions(owner, assessment.id);
  await apiPost(owner, `/api/assessments/${assessment.id}/assign`);

  // A student of the class submits (one right, one wrong).
  const studentUser = districtUser('coteach-student', 'Stella');
  const student = await pageInNewContext(browser);
  await signUp(student, studentUser, 'Student');
  await apiPost(student, '/api/classes/join', { joinCode: cls.joinCode });
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(student, '/api/student/available-assessments')).some(
          (a) => a.id === assessment.id,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  for (const [i, q] of questions.entries()) {
    const answer = i === 0 ? (q.correctAnswer ?? '') : wrongAnswer(q);
    await apiPost(student, '/api/responses', { assessmentId: assessment.id, questionId: q.id, answer });
  }
  await apiPost(student, '/api/results', { assessmentId: assessment.id });

  // Another teacher of the district signs up.
  const coUser = districtUser('coteach-co', 'Cora');
  const co = await pageInNewContext(browser);
  await signUp(co, coUser);

  // The owner adds them on the class page (the class service learns of new accounts by event: the
  // form is sent again while it still answers that no such teacher exists).
  await owner.goto(`/class/${cls.id}`);
  const teachers = owner.getByRole('region', { name: 'Teachers' });
  await expect(teachers.getByText('Owner', { exact: true })).toBeVisible();
  await expect(async () => {
    await teachers.getByLabel('Add a co-teacher').fill(coUser.email);
    await teachers.getByRole('button', { name: 'Add teacher' }).click();
    await expect(teachers.getByRole('status')).toHaveText(
      `${coUser.firstName} ${coUser.lastName} now teaches this class with you`,
      {
        timeout: 2_000,
      },
    );
  }).toPass({ timeout: 15_000 });
  await expect(teachers.getByText('Co-teacher', { exact: true })).toBeVisible();
  await expect(teachers.getByRole('button', { name: `Remove ${coUser.firstName} ${coUser.lastName}` })).toBeVisible();
  await checkA11y(owner, 'class page with its teachers');

  // The co-teacher finds the class on /classes, marked, without delete.
  await co.goto('/classes');
  const card = co.getByRole('article', { name: className });
  await expect(card).toBeVisible();
  await expect(card.getByText('Co-teaching')).toBeVisible();
  await expect(card.getByRole('button', { name: `Delete ${className}` })).toHaveCount(0);
  await card.getByRole('link', { name: `View Details of ${className}` }).click();
  await expect(co).toHaveURL(new RegExp(`/class/${cls.id}$`));
  await expect(co.getByRole('heading', { name: className })).toBeVisible();

  // …and its results: the student's row in the class grid.
  const results = co.getByRole('region', { name: 'Class Results' });
  await expect(results.getByText('1 result submitted')).toBeVisible({ timeout: 15_000 });
  await expect(
    results.getByRole('rowheader', { name: `${studentUser.firstName} ${studentUser.lastName}`, exact: true }),
  ).toBeVisible();
  const coTeachers = co.getByRole('region', { name: 'Teachers' });
  await expect(coTeachers.getByText('You co-teach this class.', { exact: false })).toBeVisible();
  await expect(coTeachers.getByLabel('Add a co-teacher')).toHaveCount(0);
  await checkA11y(co, 'class page of a co-teacher');

  // The assessment is theirs to read too.
  const listed = await apiGet<{ id: string }[]>(co, `/api/classes/${cls.id}/assessments`);
  expect(listed.map((a) => a.id)).toContain(assessment.id);

  // Deleting the class is the owner's alone.
  const refused = await co.request.delete(`/api/classes/${cls.id}`, { headers: await csrfHeaders(co) });
  expect(refused.status()).toBe(403);
  await co.reload();
  await expect(co.getByRole('heading', { name: className })).toBeVisible();
});

async function submitted(student: Page, assessmentId: string, questions: QuestionJson[]): Promise<void> {
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(student, '/api/student/available-assessments')).some(
          (a) => a.id === assessmentId,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  for (const [i, q] of questions.entries()) {
    const answer = i === 0 ? (q.correctAnswer ?? '') : wrongAnswer(q);
    await apiPost(student, '/api/responses', { assessmentId, questionId: q.id, answer });
  }
  await apiPost(student, '/api/results', { assessmentId });
}

test.describe('with the mailbox of this run (the admin, the invitations)', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test("a district assessment published to the owner's class is listed for its co-teacher, who assigns it there", async ({
    page,
    browser,
  }) => {
    const run = suffix();
    const title = `Benchmark ${run}`;
    const admin = { email: `admin@${DISTRICT_DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    const common = await apiPost<{ id: string }>(page, '/api/common-assessments', {
      title,
      description: 'Autumn',
      questions: [
        {
          questionText: 'Is 2:4 the same ratio as 1:2?',
          questionType: 'true_false',
          correctAnswer: 'true',
          points: 1,
          standards: [],
        },
      ],
    });
    // To every school, grade and subject: it reaches every class of the district.
    await apiPost(page, `/api/common-assessments/${common.id}/publish`, { schools: [], grades: [], subjects: [] });

    const owner = await pageInNewContext(browser);
    await signUp(owner, districtUser('ca-owner', 'Olive'));
    const cls = await apiPost<{ id: string }>(owner, '/api/classes', { name: `Ratios ${run}`, subject: 'Math' });
    const coUser = districtUser('ca-co', 'Cora');
    const co = await pageInNewContext(browser);
    await signUp(co, coUser);
    await expect(async () => {
      const res = await owner.request.post(`/api/classes/${cls.id}/teachers`, {
        data: { email: coUser.email },
        headers: await csrfHeaders(owner),
      });
      expect(res.status()).toBe(201);
    }).toPass({ timeout: 15_000 });

    // The co-teacher, who owns no class, finds it under District assessments for the co-taught class.
    await expect(async () => {
      await co.goto('/assessments');
      await expect(co.getByRole('form', { name: `Assign ${title}` })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    const assign = co.getByRole('form', { name: `Assign ${title}` });
    await assign.getByLabel('Class').selectOption(cls.id);
    await assign.getByRole('button', { name: 'Assign to class' }).click();
    await expect(assign.getByRole('link', { name: "Open the class's copy" })).toBeVisible();
    await checkA11y(co, 'district assessments of a co-teacher');
    // The class's copy is on the class's list for both teachers.
    for (const who of [owner, co]) {
      const listed = await apiGet<{ commonAssessmentId: string | null }[]>(who, `/api/classes/${cls.id}/assessments`);
      expect(listed.map((a) => a.commonAssessmentId)).toEqual([common.id]);
    }
  });

  test("the invitee accepts the district's mailed invitation and co-teaches the class, reading what is given to it from the owner's other class", async ({
    browser,
  }) => {
    const owner = await pageInNewContext(browser);
    await signUp(owner, districtUser('invite-owner', 'Olive'));
    const home = await apiPost<{ id: string; joinCode: string }>(owner, '/api/classes', {
      name: `Geology ${suffix()}`,
      subject: 'Science',
      period: '1',
    });
    const coTaughtName = `Geology P2 ${suffix()}`;
    const coTaught = await apiPost<{ id: string; joinCode: string }>(owner, '/api/classes', {
      name: coTaughtName,
      subject: 'Science',
      period: '2',
    });
    const assessment = await apiPost<{ id: string }>(owner, '/api/assessments', {
      title: 'Water Cycle',
      classId: home.id,
      contentToAssess: LESSON,
      questionType: 'multiple_choice',
      numberOfQuestions: 2,
    });
    const questions = await waitForQuestions(owner, assessment.id);
    await apiPost(owner, `/api/assessments/${assessment.id}/assign`, { classIds: [home.id, coTaught.id] });

    // A student of each class submits.
    const students = [
      { user: districtUser('invite-home', 'Hugo'), cls: home },
      { user: districtUser('invite-p2', 'Pia'), cls: coTaught },
    ];
    for (const s of students) {
      const page = await pageInNewContext(browser);
      await signUp(page, s.user, 'Student');
      await apiPost(page, '/api/classes/join', { joinCode: s.cls.joinCode });
      await submitted(page, assessment.id, questions);
    }

    // The owner invites an address of the district that has no account yet, and one outside it.
    const address = `nia.${suffix()}@${DISTRICT_DOMAIN}`;
    const outsider = `oscar.${suffix()}@elsewhere-${suffix()}.example.com`;
    await owner.goto(`/class/${coTaught.id}`);
    const teachers = owner.getByRole('region', { name: 'Teachers' });
    await expect(teachers.getByText('Owner', { exact: true })).toBeVisible();
    for (const email of [address, outsider]) {
      await teachers.getByLabel('Add a co-teacher').fill(email);
      await teachers.getByRole('button', { name: 'Add teacher' }).click();
      await expect(teachers.getByRole('status')).toContainText(
        `${email} has no account yet: an invitation is on its way`,
      );
    }
    await expect(teachers.getByText('Invited', { exact: true }).first()).toBeVisible();
    // The district does not invite the outsider's address: shown as such once identity answers.
    await expect(async () => {
      await owner.reload();
      await expect(teachers.getByText('Not invited', { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await checkA11y(owner, 'class page with invitations');
    await teachers.getByRole('button', { name: `Withdraw the invitation of ${outsider}` }).click();
    await expect(teachers.getByRole('status')).toHaveText(`The invitation of ${outsider} is withdrawn`);
    await expect(teachers.getByRole('list', { name: 'Teachers of this class' }).getByText(outsider)).toHaveCount(0);

    // The invitee accepts the mailed invitation, which names the class.
    const invitee = await pageInNewContext(browser);
    await invitee.goto(pathOf(await mailedLink(address, '/accept-invitation')));
    await expect(invitee.getByRole('heading', { name: 'Join Demo District' })).toBeVisible();
    await invitee.getByLabel('First Name').fill('Nia');
    await invitee.getByLabel('Last Name').fill(`New${suffix()}`);
    const password = `nia-pass-${suffix()}`;
    await invitee.getByLabel('Password', { exact: true }).fill(password);
    await invitee.getByLabel('Confirm Password').fill(password);
    await invitee.getByRole('button', { name: 'Create account' }).click();
    await expect(invitee).toHaveURL(/\/$/);

    // They co-teach the class (the class service learns of the account by event).
    await expect(async () => {
      await invitee.goto('/classes');
      await expect(invitee.getByRole('article', { name: coTaughtName })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const card = invitee.getByRole('article', { name: coTaughtName });
    await expect(card.getByText('Co-teaching')).toBeVisible();
    await card.getByRole('link', { name: `View Details of ${coTaughtName}` }).click();
    const results = invitee.getByRole('region', { name: 'Class Results' });
    await expect(results.getByText('1 result submitted')).toBeVisible({ timeout: 15_000 });
    const pia = `${students[1]!.user.firstName} ${students[1]!.user.lastName}`;
    await expect(results.getByRole('rowheader', { name: pia, exact: true })).toBeVisible();
    await expect(
      invitee.getByRole('region', { name: 'Teachers' }).getByText('Co-teacher', { exact: true }),
    ).toBeVisible();
    await checkA11y(invitee, 'class page of an invited co-teacher');

    // The assessment given to the class from the owner's other class: listed, and its results page
    // shows their class's student, not the other class's.
    const listed = await apiGet<{ id: string }[]>(invitee, `/api/classes/${coTaught.id}/assessments`);
    expect(listed.map((a) => a.id)).toEqual([assessment.id]);
    await invitee.goto(`/assessment-results/${assessment.id}`);
    await expect(invitee.getByText(pia).first()).toBeVisible({ timeout: 15_000 });
    const hugo = `${students[0]!.user.firstName} ${students[0]!.user.lastName}`;
    await expect(invitee.getByText(hugo)).toHaveCount(0);
    const theirs = await apiGet<{ summary: { submitted: number } }>(
      invitee,
      `/api/assessments/${assessment.id}/results`,
    );
    expect(theirs.summary.submitted).toBe(1);
    const owners = await apiGet<{ summary: { submitted: number } }>(owner, `/api/assessments/${assessment.id}/results`);
    expect(owners.summary.submitted).toBe(2);
    // The owner's other class is not theirs.
    expect((await invitee.request.get(`/api/classes/${home.id}`)).status()).toBe(404);

    // Its AI recommendations, from where they meet it: the class grid's column opens its preview
    // (read only), whose Support button shows the guidance written from their class's result only.
    await invitee.goto(`/class/${coTaught.id}`);
    await invitee
      .getByRole('region', { name: 'Class Results' })
      .getByRole('link', { name: 'Water Cycle', exact: true })
      .click();
    await expect(invitee).toHaveURL(new RegExp(`/assessment-preview/${assessment.id}$`));
    await expect(invitee.getByTestId('read-only-note')).toBeVisible();
    const recommendations = invitee.getByRole('group', { name: 'AI Recommendation' });
    await recommendations.getByRole('button', { name: 'Support', exact: true }).click();
    const support = invitee.getByRole('dialog', { name: /Support Recommendation/ });
    await expect(support.getByRole('button', { name: 'Download' })).toBeEnabled({ timeout: 20_000 });
    await expect(support.getByText(/Results so far: 1 submission,/)).toBeVisible();
    await checkA11y(invitee, 'support recommendation of a co-teacher of a class it is assigned to');
    await support.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(support).toBeHidden();
    // The owner's, from both classes' results.
    const ownersSupport = await apiGet<{ summary: { total: number } }>(
      owner,
      `/api/assessments/${assessment.id}/recommendations/support`,
    );
    expect(ownersSupport.summary.total).toBe(2);
    // The results page (linked from the preview) offers them too; Enrichment counts the same result.
    await invitee.getByRole('link', { name: 'Results', exact: true }).click();
    await expect(invitee).toHaveURL(new RegExp(`/assessment-results/${assessment.id}$`));
    await invitee
      .getByRole('group', { name: 'AI Recommendation' })
      .getByRole('button', { name: 'Enrichment', exact: true })
      .click();
    const enrichment = invitee.getByRole('dialog', { name: /Enrichment Recommendation/ });
    await expect(enrichment.getByText(/Results so far: 1 submission,/)).toBeVisible({ timeout: 20_000 });
  });
});

test("an individual account's co-teacher reads the co-taught class's results among their own, not the owner's other classes", async ({
  browser,
}) => {
  const owner = await pageInNewContext(browser);
  await signUp(owner, newUser('solo-owner'));
  const sharedName = `Astronomy ${suffix()}`;
  const shared = await apiPost<{ id: string; joinCode: string }>(owner, '/api/classes', {
    name: sharedName,
    subject: 'Science',
    period: '1',
  });
  const other = await apiPost<{ id: string }>(owner, '/api/classes', { name: `Private ${suffix()}`, subject: 'Math' });
  const assessment = await apiPost<{ id: string }>(owner, '/api/assessments', {
    title: 'Water Cycle',
    classId: shared.id,
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: 2,
  });
  const questions = await waitForQuestions(owner, assessment.id);
  await apiPost(owner, `/api/assessments/${assessment.id}/assign`);
  const studentUser = newUser('solo-student');
  const student = await pageInNewContext(browser);
  await signUp(student, studentUser, 'Student');
  await apiPost(student, '/api/classes/join', { joinCode: shared.joinCode });
  await submitted(student, assessment.id, questions);

  // Another individual account is added by email (retried until the class service knows it).
  const coUser = { ...newUser('solo-co'), firstName: 'Cato' };
  const co = await pageInNewContext(browser);
  await signUp(co, coUser);
  await expect(async () => {
    const res = await owner.request.post(`/api/classes/${shared.id}/teachers`, {
      data: { email: coUser.email },
      headers: await csrfHeaders(owner),
    });
    expect(res.status()).toBe(201);
  }).toPass({ timeout: 15_000 });

  // The class page's results, and the co-teacher's list of all results, hold the class's result.
  await co.goto(`/class/${shared.id}`);
  const results = co.getByRole('region', { name: 'Class Results' });
  await expect(results.getByText('1 result submitted')).toBeVisible({ timeout: 15_000 });
  await expect(
    results.getByRole('rowheader', { name: `${studentUser.firstName} ${studentUser.lastName}`, exact: true }),
  ).toBeVisible();
  await checkA11y(co, 'class page of an individual co-teacher');
  const all = await apiGet<{ assessmentId: string }[]>(co, '/api/all-results');
  expect(all.map((r) => r.assessmentId)).toEqual([assessment.id]);

  // The owner's other class stays theirs alone.
  expect((await co.request.get(`/api/classes/${other.id}`)).status()).toBe(404);
  expect((await co.request.get(`/api/classes/${other.id}/grid`)).status()).toBe(404);
  await co.goto(`/class/${other.id}`);
  await expect(co.getByRole('heading', { name: 'Class not found' })).toBeVisible();
});

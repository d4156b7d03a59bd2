import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { StandardsPage } from './StandardsPage';
import type { DistrictStandard, Framework } from './standardsApi';

const FRAMEWORK: Framework = {
  id: '44444444-4444-4444-8444-444444444444',
  title: 'Test State Mathematics',
  documentIdentifier: 'doc-1',
  creator: 'Test State',
  version: '1.0',
  uri: 'https://case.example.org/doc-1',
  subjects: ['Mathematics'],
  itemCount: 3,
  scope: 'district',
  importedAt: '2026-03-05T10:00:00.000Z',
  updatedAt: '2026-03-05T10:00:00.000Z',
};
const PACKAGE = { CFDocument: { identifier: 'doc-1', title: 'Test State Mathematics' }, CFItems: [] };

const DISTRICT: DistrictStandard[] = [
  {
    identifier: 'item-1',
    code: '6.RP.A.1',
    suppressed: false,
    students: 7,
    score: 82,
    level: 'at',
    below: 2,
    at: 3,
    above: 2,
    schools: [
      {
        schoolId: 'sch-n',
        schoolName: 'North Middle',
        suppressed: false,
        students: 5,
        score: 84,
        level: 'at',
        below: 1,
        at: 3,
        above: 1,
      },
      { schoolId: 'sch-s', schoolName: 'South Middle', suppressed: true },
    ],
    classes: [
      {
        classId: '55555555-5555-4555-8555-555555555555',
        className: 'Math 6A',
        period: '2',
        teacherName: 'Ada Lovelace',
        schoolId: 'sch-n',
        schoolName: 'North Middle',
        suppressed: false,
        students: 5,
        score: 84,
        level: 'at',
        below: 1,
        at: 3,
        above: 1,
      },
      {
        classId: '66666666-6666-4666-8666-666666666666',
        className: 'Math 6B',
        period: null,
        teacherName: 'Alan Turing',
        schoolId: 'sch-s',
        schoolName: 'South Middle',
        suppressed: true,
      },
    ],
  },
];

const file = (text: string, name = 'framework.json') => new File([text], name, { type: 'application/json' });

describe('StandardsPage', () => {
  it('when the district has no frameworks nor aligned results, then both empty states show', async () => {
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
    });
    renderWithProviders(<StandardsPage />);
    expect(await screen.findByTestId('frameworks-empty')).toHaveTextContent('No frameworks yet');
    expect(await screen.findByTestId('district-mastery-empty')).toBeInTheDocument();
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
  });

  it('when a CASE file is imported, then its JSON is the body and the four counts show', async () => {
    const fetch = stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, [FRAMEWORK]),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
      'POST /api/standards/frameworks': () =>
        jsonResponse(201, { framework: FRAMEWORK, counts: { added: 3, updated: 1, unchanged: 0, withdrawn: 2 } }),
    });
    const { user } = renderWithProviders(<StandardsPage />);
    await user.upload(screen.getByLabelText('CASE package file'), file(JSON.stringify(PACKAGE)));
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    const counts = await screen.findByTestId('import-counts');
    expect(counts).toHaveTextContent('Imported Test State Mathematics');
    expect(counts).toHaveTextContent('Added3Updated1Unchanged0Withdrawn2');
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual(PACKAGE);
    expect(await screen.findByRole('table', { name: 'Frameworks' })).toHaveTextContent('Test State Mathematics');
  });

  it('when the package is refused, then the server message and the item it names show', async () => {
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
      'POST /api/standards/frameworks': () =>
        jsonResponse(400, {
          message: 'CFItems[1] has no humanCodingScheme',
          code: 'validation_failed',
          fields: { 'CFItems.1.humanCodingScheme': 'An item needs its code' },
        }),
    });
    const { user } = renderWithProviders(<StandardsPage />);
    await user.upload(screen.getByLabelText('CASE package file'), file(JSON.stringify(PACKAGE)));
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    const refusal = await screen.findByTestId('import-error');
    expect(refusal).toHaveTextContent('CFItems[1] has no humanCodingScheme');
    expect(refusal).toHaveTextContent('CFItems.1.humanCodingScheme: An item needs its code');
    expect(refusal).toHaveTextContent('Nothing was imported.');
  });

  it('when the file is not JSON or the URL not https, then the form says so and sends nothing', async () => {
    const fetch = stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
    });
    const { user } = renderWithProviders(<StandardsPage />);
    await user.upload(screen.getByLabelText('CASE package file'), file('not json', 'notes.json'));
    await user.click(screen.getByRole('button', { name: 'Import file' }));
    expect(await screen.findByText('notes.json is not JSON: choose a CASE CFPackage JSON file')).toBeInTheDocument();
    await user.type(screen.getByLabelText('CASE provider URL'), 'http://case.example.org/x');
    await user.click(screen.getByRole('button', { name: 'Import from URL' }));
    expect(await screen.findByText('The address must start with https://')).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('when a URL is imported, then it is sent as { url }', async () => {
    const fetch = stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
      'POST /api/standards/frameworks': () =>
        jsonResponse(200, { framework: FRAMEWORK, counts: { added: 0, updated: 0, unchanged: 3, withdrawn: 0 } }),
    });
    const { user } = renderWithProviders(<StandardsPage />);
    const url = 'https://case.example.org/ims/case/v1p0/CFPackages/doc-1';
    await user.type(screen.getByLabelText('CASE provider URL'), url);
    await user.click(screen.getByRole('button', { name: 'Import from URL' }));
    await screen.findByTestId('import-counts');
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ url });
  });

  it('when the district has mastery, then each school and its classes show, and a group of fewer than 5 students shows no figures', async () => {
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, [FRAMEWORK]),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, DISTRICT),
    });
    renderWithProviders(<StandardsPage />);
    const table = await screen.findByRole('table', { name: 'Mastery by standard, school and class' });
    // The district, then each school followed by its classes.
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['6.RP.A.1 (district)', 'North Middle', 'Math 6A (2)Ada Lovelace', 'South Middle', 'Math 6BAlan Turing']);
    expect(within(table).getByRole('row', { name: /^South Middle/ })).toHaveTextContent('fewer than 5 students');
    const shown = within(table).getByRole('row', { name: /Math 6A/ });
    expect(shown).toHaveTextContent('At Standard84%51 below · 3 at · 1 above');
    const hidden = within(table).getByRole('row', { name: /Math 6B/ });
    expect(hidden).toHaveTextContent('fewer than 5 students');
    expect(hidden).not.toHaveTextContent('%');
    expect(screen.getByRole('link', { name: 'Export mastery CSV' })).toHaveAttribute(
      'href',
      '/api/mastery/district/export',
    );
  });

  it('when a code is searched, then the items found are listed', async () => {
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, [FRAMEWORK]),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
      'GET /api/standards/search?q=6.RP&subject=Mathematics&limit=50': () =>
        jsonResponse(200, [
          {
            identifier: 'item-1',
            code: '6.RP.A.1',
            statement: 'Understand the concept of a ratio.',
            uri: 'https://case.example.org/item-1',
            frameworkId: FRAMEWORK.id,
            frameworkTitle: FRAMEWORK.title,
            educationLevels: ['06'],
          },
        ]),
    });
    const { user } = renderWithProviders(<StandardsPage />);
    await user.selectOptions(await screen.findByLabelText('Subject'), 'Mathematics');
    await user.type(screen.getByLabelText('Code or words'), '6.RP');
    const found = await screen.findByRole('table', { name: 'Standards found' });
    await waitFor(() => expect(found).toHaveTextContent('6.RP.A.1Understand the concept of a ratio.06'));
  });
});

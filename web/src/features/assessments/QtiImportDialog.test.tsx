import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEACHER, stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { QtiImportDialog } from './QtiImportDialog';
import type { QtiImport } from './qtiApi';

const CLASS_ID = '0a0b0c0d-0000-4000-8000-00000000c1a5';
const OTHER_CLASS = '0a0b0c0d-0000-4000-8000-00000000c1a6';
const NEW_ID = '0a0b0c0d-0000-4000-8000-0000000000a1';
const RESULT: QtiImport = {
  assessmentId: NEW_ID,
  title: 'Fractions check',
  imported: 2,
  report: [
    { file: 'items/essay.xml', item: 'essay-1', reason: 'extendedTextInteraction is not supported', imported: false },
    { file: 'items/q2.xml', item: 'q2', reason: 'the image media/fig.png cannot be shown', imported: true },
  ],
};
const CLASSES = [
  { id: CLASS_ID, name: 'Maths 7', period: '1' },
  { id: OTHER_CLASS, name: 'Maths 8', period: '2' },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

const zip = () => new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'fractions.zip', { type: 'application/zip' });

describe('QtiImportDialog', () => {
  it('when a teacher imports a package into a class, then the file is the body, and the count, the draft and the report (left out apart from imported without) show', async () => {
    const fetchMock = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      [`POST /api/qti/imports?classId=${CLASS_ID}`]: () => jsonResponse(201, RESULT),
    });
    const { user } = renderWithProviders(<QtiImportDialog show classId={CLASS_ID} onHide={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Import QTI package' });
    const file = zip();
    await user.upload(within(dialog).getByLabelText('QTI package'), file);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    const heading = await screen.findByRole('heading', { name: '2 questions imported' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading.closest('[aria-live="polite"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Fractions check' })).toHaveAttribute(
      'href',
      `/assessment-preview/${NEW_ID}`,
    );

    const leftOut = screen.getByRole('region', { name: 'Left out (1)' });
    expect(within(leftOut).getByRole('listitem')).toHaveTextContent(
      'essay-1 in items/essay.xml: extendedTextInteraction is not supported',
    );
    const without = screen.getByRole('region', { name: 'Imported without something (1)' });
    expect(within(without).getByRole('listitem')).toHaveTextContent(
      'q2 in items/q2.xml: the image media/fig.png cannot be shown',
    );

    const upload = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/qti/imports'));
    const init = upload?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(file);
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/zip');
  });

  it('when the server refuses the package (400), then its message shows on the file field and no result shows', async () => {
    const message = 'The package has no imsmanifest.xml';
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      [`POST /api/qti/imports?classId=${CLASS_ID}`]: () =>
        jsonResponse(400, { message, code: 'validation_error', fields: { package: message } }),
    });
    const { user } = renderWithProviders(<QtiImportDialog show classId={CLASS_ID} onHide={() => {}} />);
    const input = await screen.findByLabelText('QTI package');
    await user.upload(input, zip());
    await user.click(screen.getByRole('button', { name: 'Import' }));

    expect(await screen.findByText(message)).toHaveAttribute('id', 'qti-import-file-error');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAttribute('aria-describedby', 'qti-import-file-error');
    expect(input).toHaveFocus();
    expect(screen.queryByTestId('qti-import-result')).not.toBeInTheDocument();
  });

  it('when no file is chosen, then nothing is sent and the file field says what to choose', async () => {
    const fetchMock = stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, TEACHER) });
    const { user } = renderWithProviders(<QtiImportDialog show classId={CLASS_ID} onHide={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Choose a QTI package (.zip) or one item (.xml)')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/qti'))).toBe(false);
  });

  it('when opened from the assessments list, then the teacher chooses the class, and an item as .xml goes as application/xml', async () => {
    const fetchMock = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`POST /api/qti/imports?classId=${OTHER_CLASS}`]: () => jsonResponse(201, { ...RESULT, imported: 1, report: [] }),
    });
    const { user } = renderWithProviders(<QtiImportDialog show onHide={() => {}} />);
    await user.selectOptions(await screen.findByLabelText('Class'), OTHER_CLASS);
    const item = new File(['<qti-assessment-item/>'], 'item.xml', { type: 'text/xml' });
    await user.upload(screen.getByLabelText('QTI package'), item);
    await user.click(screen.getByRole('button', { name: 'Import' }));

    expect(await screen.findByRole('heading', { name: '1 question imported' })).toBeInTheDocument();
    expect(screen.getByTestId('qti-report-empty')).toBeInTheDocument();
    const upload = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/qti/imports'));
    expect(new Headers(upload?.[1]?.headers).get('Content-Type')).toBe('application/xml');
  });
});

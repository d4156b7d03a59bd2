import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { ClassAccommodationsSection } from './ClassAccommodationsSection';
import type { ClassStudentAccommodations } from './accommodationsApi';

const NONE = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
} as const;

const ANA: ClassStudentAccommodations = {
  studentId: 's1',
  firstName: 'Ana',
  lastName: 'Zamora',
  ...NONE,
  readAloud: true,
  reducedChoices: 1,
  extraTime: 1.5,
};
const BEN: ClassStudentAccommodations = { studentId: 's2', firstName: 'Ben', lastName: 'Abbott', ...NONE };

afterEach(() => {
  vi.restoreAllMocks();
});

function renderSection(students: ClassStudentAccommodations[], put?: (body: unknown) => Response) {
  let current = students;
  const fetch = stubFetch({
    'GET /api/classes/c1/accommodations': () => jsonResponse(200, current),
    'PUT /api/classes/c1/students/s2/accommodations': (init) => {
      const body = JSON.parse(String(init?.body)) as Partial<ClassStudentAccommodations>;
      const res = put?.(body);
      if (res) return res;
      current = current.map((s) => (s.studentId === 's2' ? { ...s, ...body } : s));
      return jsonResponse(200, { ...NONE, ...body });
    },
  });
  return { fetch, ...renderWithProviders(<ClassAccommodationsSection classId="c1" className="Biology" />) };
}

describe('ClassAccommodationsSection', () => {
  it("when the class is listed, then each student shows with their accommodations in a teacher's words, or None", async () => {
    renderSection([BEN, ANA]);
    const table = await screen.findByRole('table', { name: 'Accommodations' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Ben Abbott', 'Ana Zamora']);
    expect(within(rows[0]!).getByText('None')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Read aloud, Fewer answer choices (remove 1), 1.5× time')).toBeInTheDocument();
    expect(screen.getByText('1 of 2 students have some.')).toBeInTheDocument();
  });

  it('when the teacher edits a student and saves, then the PUT carries the seven fields and the table shows the new set', async () => {
    const { user, fetch } = renderSection([BEN, ANA]);
    await user.click(await screen.findByRole('button', { name: 'Edit accommodations of Ben Abbott' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accommodations of Ben Abbott' });
    await user.selectOptions(within(dialog).getByLabelText('Fewer answer choices'), 'Remove 2 wrong choices');
    await user.selectOptions(within(dialog).getByLabelText('Extra time'), 'No time limit');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Large text' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Answer masking' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      ...NONE,
      reducedChoices: 2,
      extraTime: 'none',
      largeText: true,
      answerMasking: true,
    });
    const row = (await screen.findByText('Ben Abbott')).closest('tr')!;
    await waitFor(() =>
      expect(
        within(row).getByText('Fewer answer choices (remove 2), No time limit, Large text, Answer masking'),
      ).toBeInTheDocument(),
    );
  });

  it('when the server refuses a field, then its message shows under that field and the dialog stays open', async () => {
    const { user } = renderSection([BEN], () =>
      jsonResponse(400, {
        message: 'Invalid request',
        code: 'VALIDATION',
        fields: { extraTime: 'extraTime must be a factor from 1 to 4 (1.5: half as long again) or "none"' },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Edit accommodations of Ben Abbott' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByLabelText('Extra time'), '2× time');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const select = within(dialog).getByLabelText('Extra time');
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveAccessibleDescription(/extraTime must be a factor from 1 to 4/);
    expect(within(dialog).getByLabelText('Fewer answer choices')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('when the server fails otherwise, then the dialog says so', async () => {
    const { user } = renderSection([BEN], () => jsonResponse(404, { message: 'No such student in this class' }));
    await user.click(await screen.findByRole('button', { name: 'Edit accommodations of Ben Abbott' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No such student in this class');
  });

  it('when the teacher prints for a substitute, then the printer gets a sheet alone listing the students with accommodations', async () => {
    let printed: { text: string; bodyClass: boolean } | undefined;
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      const sheet = document.querySelector('.print-sheet');
      printed = { text: sheet?.textContent ?? '', bodyClass: document.body.classList.contains('printing-sheet') };
    });
    const { user } = renderSection([BEN, ANA]);
    // Enabled once the class's list has arrived (a slow machine may show it disabled first).
    const button = await screen.findByRole('button', { name: 'Print for a substitute' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(print).toHaveBeenCalledOnce();
    expect(printed?.bodyClass).toBe(true);
    expect(printed?.text).toContain('Accommodations: Biology');
    expect(printed?.text).toContain('Ana ZamoraRead aloud; Fewer answer choices (remove 1); 1.5× time');
    expect(printed?.text).not.toContain('Ben Abbott');
    expect(printed?.text).toContain('The other 1 students of the class have none.');
    // Afterwards the page is as it was.
    await waitFor(() => expect(document.querySelector('.print-sheet')).toBeNull());
    expect(document.body.classList.contains('printing-sheet')).toBe(false);
  });
});

// The use cases with a stand-in repository, for what the database cannot be made to do on cue.
import { describe, expect, it, vi } from 'vitest';
import type { AssessmentsRepository, SaveOutcome } from '../data-access/assessments.repository.ts';
import type { StudentAccess } from './assessment.ts';
import { assessmentUseCases } from './assessments.use-case.ts';

const OPEN: StudentAccess = {
  assessmentId: 'a1',
  tenantId: 't1',
  classId: 'c1',
  isActive: true,
  assigned: true,
  classArchived: false,
  member: true,
  resultId: null,
};
const SAVED = {
  id: 'r1',
  assessmentId: 'a1',
  questionId: 'q1',
  studentId: 's1',
  answer: 'B',
  clientSeq: null,
  updatedAt: '2026-11-23T00:00:00.000Z',
};

function withSaves(...outcomes: SaveOutcome[]) {
  const saveResponse = vi.fn();
  for (const o of outcomes) saveResponse.mockResolvedValueOnce(o);
  const uc = assessmentUseCases({ assessments: { saveResponse } as unknown as AssessmentsRepository });
  return { uc, saveResponse };
}

const student = { studentId: 's1' };
const input = { assessmentId: 'a1', questionId: 'q1', answer: 'B' };

describe('saving an answer', () => {
  it('when the student joined between the refused upsert and its checks, then the save is tried again and stored', async () => {
    const { uc, saveResponse } = withSaves({ refused: OPEN, questionOk: true }, {
      saved: SAVED,
    } as unknown as SaveOutcome);
    await expect(uc.saveResponse(student, input)).resolves.toEqual(SAVED);
    expect(saveResponse).toHaveBeenCalledTimes(2);
  });

  it('when the question is not the assessment’s, then 404 without a second try', async () => {
    const { uc, saveResponse } = withSaves({ refused: OPEN, questionOk: false });
    await expect(uc.saveResponse(student, input)).rejects.toThrow('Question not found');
    expect(saveResponse).toHaveBeenCalledTimes(1);
  });

  it('when the student is not a member, then 404 without a second try', async () => {
    const { uc, saveResponse } = withSaves({ refused: { ...OPEN, member: false }, questionOk: true });
    await expect(uc.saveResponse(student, input)).rejects.toThrow('Assessment not found');
    expect(saveResponse).toHaveBeenCalledTimes(1);
  });
});

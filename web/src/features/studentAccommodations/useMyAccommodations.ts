// The signed-in student's own accommodations (GET /api/student/accommodations, #32 item 1), read
// by the taking and practice pages; anyone else, or a failed read: none.
import { useGetMyAccommodationsQuery, type GetMyAccommodationsApiResponse } from '../../api/generated/endpoints';

export type Accommodations = GetMyAccommodationsApiResponse;

export const NO_ACCOMMODATIONS: Accommodations = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

/** The student's accommodations (none while loading, for others, or when the read failed) and whether they are on their way. */
export function useMyAccommodations(isStudent: boolean): { accommodations: Accommodations; isLoading: boolean } {
  const { data, isLoading } = useGetMyAccommodationsQuery(undefined, { skip: !isStudent });
  return { accommodations: data ?? NO_ACCOMMODATIONS, isLoading };
}

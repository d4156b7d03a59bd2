// Accommodations calls of the assessment service (#32 item 1): a class's list and one student's
// set for their teachers, and the signed-in student's own set for the taking and practice pages.
// Endpoints and types are generated from the gateway's OpenAPI document (api/generated); this
// file adds their cache tags.
import { generatedApi } from '../../api/generated/endpoints';
import type {
  GetClassAccommodationsApiResponse,
  GetMyAccommodationsApiResponse,
  SetStudentAccommodationsApiArg,
} from '../../api/generated/endpoints';

/** A student's accommodations as the server answers them. */
export type Accommodations = GetMyAccommodationsApiResponse;
/** A student of a class with their accommodations (the teacher's list). */
export type ClassStudentAccommodations = GetClassAccommodationsApiResponse[number];
export type AccommodationsChange = SetStudentAccommodationsApiArg['body'];

export const accommodationsApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['Accommodations'],
  endpoints: {
    getClassAccommodations: { providesTags: (_r, _e, id) => [{ type: 'Accommodations', id }] },
    setStudentAccommodations: {
      invalidatesTags: (result, _e, { id }) => (result ? [{ type: 'Accommodations', id }] : []),
    },
  },
});

export const { useGetClassAccommodationsQuery, useSetStudentAccommodationsMutation } = accommodationsApi;

// Class service calls (spec §7). Only what built screens use so far; the classes issue extends this.
import { apiSlice } from '../../api/apiSlice';

/** Fields named by spec §3; the rest arrives with the classes issue. */
export interface ClassSummary {
  id: string;
  name: string;
}

export const classesApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getClasses: build.query<ClassSummary[], void>({ query: () => '/api/classes' }),
  }),
});

export const { useGetClassesQuery } = classesApi;

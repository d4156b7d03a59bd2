// The single RTK Query api slice (one base: the gateway); features add endpoints with injectEndpoints.
import { createApi } from '@reduxjs/toolkit/query/react';
import { appBaseQuery } from './baseQuery';

export const apiSlice = createApi({
  reducerPath: 'api',
  baseQuery: appBaseQuery,
  tagTypes: ['User'],
  // Data never goes stale on a timer, no focus/reconnect refetch, no retries (RTK Query never retries by default).
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
});

import { useGetCurrentUserQuery } from './authApi';
import type { User } from './user';

export interface AuthState {
  user: User | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/**
 * The current user. `fresh` refetches on mount (the current user is always treated as stale);
 * only the app root asks for that so that every page does not refetch it.
 */
export function useAuth(options: { fresh?: boolean } = {}): AuthState {
  const { data, isLoading } = useGetCurrentUserQuery(undefined, {
    refetchOnMountOrArgChange: options.fresh ?? false,
  });
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: user !== null };
}

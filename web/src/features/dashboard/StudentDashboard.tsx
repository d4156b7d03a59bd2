// Student "/" — the heading only until the class and assessment services exist (no invented data).
import { useAuth } from '../auth/useAuth';

export function StudentDashboard() {
  const { user } = useAuth();
  return (
    <>
      <h1 className="h2 mb-1">Welcome back{user ? `, ${user.firstName}` : ''}!</h1>
      <p className="text-body-secondary">Your classes and assessments will appear here.</p>
    </>
  );
}

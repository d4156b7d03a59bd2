// /support-content/{resultId} (students) and /interactive-support/{resultId} (teachers), practice
// by result: practice built from the result's wrong answers.
import { useParams } from 'react-router';
import { useAuth } from '../../session/useAuth';
import { navRole } from '../../session/user';
import { isUnauthorizedError, serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import { PracticeNotFound } from './PracticeNotFound';
import { MASTERY, PracticeRunner } from './PracticeRunner';
import {
  useGetSupportContentQuery,
  useRestartSupportContentMutation,
  useSubmitSupportContentMutation,
} from './practiceApi';

export function ResultPracticePage() {
  const { resultId = '' } = useParams();
  const content = useGetSupportContentQuery(resultId);
  const [submit] = useSubmitSupportContentMutation();
  const [restart] = useRestartSupportContentMutation();
  const toast = useToast();
  const { user } = useAuth();
  // A teacher opened a student's practice (/interactive-support): back to their own dashboard.
  const dashboardPath = user && navRole(user) !== 'student' ? '/' : '/student-dashboard';

  if (content.isLoading) return <PageSpinner />;
  if (!content.data || content.data.questions.length === 0) return <PracticeNotFound />;
  const c = content.data;

  const onSubmit = async (answers: Record<string, string>) => {
    try {
      const result = await submit({ resultId, body: { answers, round: c.round } }).unwrap();
      toast(
        result.score >= MASTERY
          ? { title: 'Great Job!', description: `You scored ${Math.round(result.score)}%.` }
          : {
              title: 'Keep Practicing',
              description: `You scored ${Math.round(result.score)}%. You need 80% to master this material.`,
              variant: 'destructive',
            },
      );
      return result.score;
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: 'Error',
          description: serverMessageOr(error, 'Failed to submit answers'),
          variant: 'destructive',
        });
      }
      throw error;
    }
  };

  // "Try Again" writes the practice anew (other items where the lesson allows): fetch it again.
  const onRetry = async () => {
    try {
      await restart(resultId).unwrap();
      await content.refetch();
    } catch (error) {
      // Each round takes one attempt and rounds are bounded: say why there is no new round.
      if (!isUnauthorizedError(error)) {
        toast({
          title: 'Error',
          description: serverMessageOr(error, 'Failed to restart practice'),
          variant: 'destructive',
        });
      }
    }
  };

  return (
    <PracticeRunner
      key={`${resultId}:${c.round}`}
      title={c.performanceLevel === 'below' ? 'Support Practice' : 'Enrichment Challenge'}
      reading={c.reading}
      readingOnFirstOnly
      questions={c.questions.map((q, i) => ({
        key: String(i),
        question: q.question,
        type: q.type,
        options: q.options,
      }))}
      submitLabel="Submit All Answers"
      onSubmit={onSubmit}
      onRetry={onRetry}
      passedHeading="Excellent Work!"
      failedHeading="Keep Practicing!"
      dashboardPath={dashboardPath}
    />
  );
}

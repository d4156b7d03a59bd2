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
import { useTranslation } from '../../i18n/react';
import { formatPercent } from '../../i18n/format';

export function ResultPracticePage() {
  const { resultId = '' } = useParams();
  const content = useGetSupportContentQuery(resultId);
  const [submit] = useSubmitSupportContentMutation();
  const [restart] = useRestartSupportContentMutation();
  const toast = useToast();
  const { user } = useAuth();
  // A teacher opened a student's practice (/interactive-support): back to their own dashboard.
  const dashboardPath = user && navRole(user) !== 'student' ? '/' : '/student-dashboard';
  const { t } = useTranslation('take');

  if (content.isLoading) return <PageSpinner />;
  if (!content.data || content.data.questions.length === 0) return <PracticeNotFound />;
  const c = content.data;

  const onSubmit = async (answers: Record<string, string>) => {
    try {
      const result = await submit({ resultId, body: { answers, round: c.round } }).unwrap();
      toast(
        result.score >= MASTERY
          ? {
              title: t('practice.greatJob'),
              description: t('practice.scored', { score: formatPercent(Math.round(result.score)) }),
            }
          : {
              title: t('practice.keepPracticing'),
              description: t('practice.scoredNeed', { score: formatPercent(Math.round(result.score)) }),
              variant: 'destructive',
            },
      );
      return result.score;
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: t('common:toast.error'),
          description: serverMessageOr(error, t('practice.submitFailed')),
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
          title: t('common:toast.error'),
          description: serverMessageOr(error, t('practice.restartFailed')),
          variant: 'destructive',
        });
      }
    }
  };

  return (
    <PracticeRunner
      key={`${resultId}:${c.round}`}
      title={c.performanceLevel === 'below' ? t('practice.supportPractice') : t('practice.enrichment')}
      reading={c.reading}
      readingOnFirstOnly
      questions={c.questions.map((q, i) => ({
        key: String(i),
        question: q.question,
        type: q.type,
        options: q.options,
      }))}
      submitLabel={t('practice.submitAll')}
      onSubmit={onSubmit}
      onRetry={onRetry}
      passedHeading={t('practice.excellent')}
      failedHeading={t('practice.keepPracticingBang')}
      dashboardPath={dashboardPath}
    />
  );
}

// /support/{id}/{type}, practice by assessment and type: reading, questions one at a
// time, score page. The questions come without answer keys: completion is scored on the server,
// and 80+ with support raises the level.
import { useParams } from 'react-router';
import { isApiError, isUnauthorizedError, serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import type { PracticeType } from '../assessments';
import { PracticeNotFound } from './PracticeNotFound';
import { MASTERY, PracticeRunner } from './PracticeRunner';
import { useCompleteSupportMutation, useGetSupportMaterialQuery } from './practiceApi';

function isPracticeType(value: string | undefined): value is PracticeType {
  return value === 'support' || value === 'enrichment';
}

export function SupportPracticePage() {
  const { id = '', type } = useParams();
  const valid = isPracticeType(type);
  const material = useGetSupportMaterialQuery({ id, type: valid ? type : 'support' }, { skip: !valid });
  const [complete] = useCompleteSupportMutation();
  const toast = useToast();

  if (!valid) return <PracticeNotFound />;
  if (material.isLoading) return <PageSpinner />;
  if (!material.data || material.data.questions.length === 0) return <PracticeNotFound />;
  const m = material.data;

  const onSubmit = async (answers: Record<string, string>) => {
    try {
      // Only the answers: the page has no keys, the server scores them against its own.
      const result = await complete({ id, body: { type, responses: answers, version: m.version } }).unwrap();
      if (result.score >= MASTERY) {
        toast({
          title: 'Great Job!',
          description:
            type === 'support'
              ? `You scored ${Math.round(result.score)}%. Your level is now At Standard.`
              : `You scored ${Math.round(result.score)}%.`,
        });
      } else {
        toast({
          title: 'Keep Practicing',
          description: `You scored ${Math.round(result.score)}%. You need 80% to master this material.`,
          variant: 'destructive',
        });
      }
      return result.score;
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: 'Error',
          description: serverMessageOr(error, 'Failed to submit answers'),
          variant: 'destructive',
        });
      }
      // The teacher edited the lesson meanwhile: load the new questions (the runner starts afresh).
      if (isApiError(error) && error.code === 'practice_changed') void material.refetch();
      throw error;
    }
  };

  return (
    <PracticeRunner
      key={`${id}-${type}-${m.version}`}
      title={type === 'support' ? 'Extra Help Materials' : 'Challenge Work'}
      subtitle={
        type === 'support'
          ? 'Review the reading, then answer the practice questions.'
          : 'Stretch yourself with these challenge questions.'
      }
      reading={m.reading}
      readingOnFirstOnly={false}
      questions={m.questions.map((q) => ({ key: q.id, question: q.question, type: q.type, options: q.options }))}
      submitLabel="Submit"
      onSubmit={onSubmit}
      passedHeading="Great Job!"
      failedHeading="Keep Practicing"
      dashboardPath="/"
    />
  );
}

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
import { useTranslation } from '../../i18n/react';
import { formatPercent } from '../../i18n/format';

function isPracticeType(value: string | undefined): value is PracticeType {
  return value === 'support' || value === 'enrichment';
}

export function SupportPracticePage() {
  const { id = '', type } = useParams();
  const valid = isPracticeType(type);
  const material = useGetSupportMaterialQuery({ id, type: valid ? type : 'support' }, { skip: !valid });
  const [complete] = useCompleteSupportMutation();
  const toast = useToast();
  const { t } = useTranslation('take');

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
          title: t('practice.greatJob'),
          description:
            type === 'support'
              ? t('practice.scoredAtStandard', { score: formatPercent(Math.round(result.score)) })
              : t('practice.scored', { score: formatPercent(Math.round(result.score)) }),
        });
      } else {
        toast({
          title: t('practice.keepPracticing'),
          description: t('practice.scoredNeed', { score: formatPercent(Math.round(result.score)) }),
          variant: 'destructive',
        });
      }
      return result.score;
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: t('common:toast.error'),
          description: serverMessageOr(error, t('practice.submitFailed')),
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
      title={type === 'support' ? t('practice.supportTitle') : t('practice.challengeTitle')}
      subtitle={type === 'support' ? t('practice.supportSubtitle') : t('practice.challengeSubtitle')}
      reading={m.reading}
      readingOnFirstOnly={false}
      questions={m.questions.map((q) => ({ key: q.id, question: q.question, type: q.type, options: q.options }))}
      submitLabel={t('practice.submit')}
      onSubmit={onSubmit}
      passedHeading={t('practice.greatJob')}
      failedHeading={t('practice.keepPracticing')}
      dashboardPath="/"
    />
  );
}

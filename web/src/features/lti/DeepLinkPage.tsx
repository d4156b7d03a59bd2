// LTI Deep Linking (docs/adr/014-lti.md, "Deep linking"): a teacher who chose "add Checkpoint" in
// their LMS lands here (signed in by the launch) and picks one of their assessments, those of the
// course's class first. The server signs the answer and keeps it; this page then opens the tool's
// page that posts it to the LMS (the platform's return URL never passes through the browser's hands
// before that). A way to create an assessment opens in a new tab; this page stays and lists it on
// Refresh.
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { useParams } from 'react-router';
import { serverMessageOr } from '../../api/apiError';
import { generatedApi } from '../../api/generated/endpoints';
import { PageSpinner } from '../../components/PageSpinner';
import { formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

const { useGetLtiDeepLinkRequestQuery, useAnswerLtiDeepLinkRequestMutation } = generatedApi;

/** Leaving the app for the page that posts the answer to the LMS (a seam for the tests). */
export const browser = { go: (url: string) => window.location.assign(url) };

/** Points as the list shows them: whole, or to one decimal. */
const pointsText = (n: number) =>
  formatNumber(n, Number.isInteger(n) ? {} : { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function DeepLinkPage() {
  const { t } = useTranslation('assessments');
  const { id = '' } = useParams();
  const { data, error, isLoading, isFetching, refetch } = useGetLtiDeepLinkRequestQuery(id, {
    refetchOnMountOrArgChange: true,
  });
  const [answer, answering] = useAnswerLtiDeepLinkRequestMutation();
  const [failure, setFailure] = useState<string>();

  if (isLoading) return <PageSpinner />;

  const pick = async (assessmentId: string) => {
    setFailure(undefined);
    try {
      const { formUrl } = await answer({ id, body: { assessmentId } }).unwrap();
      browser.go(formUrl);
    } catch (err) {
      setFailure(serverMessageOr(err, t('deepLink.failed')));
    }
  };

  return (
    <div className="d-flex justify-content-center py-5 px-3">
      <Card className="shadow-sm" style={{ maxWidth: 720, width: '100%' }}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-2">{t('deepLink.title')}</h1>
          {error || !data ? (
            <Alert variant="warning" className="mb-0">
              {t('deepLink.unknown')}
            </Alert>
          ) : (
            <>
              <p className="text-body-secondary">{t('deepLink.intro', { platform: data.platform })}</p>
              {failure && (
                <Alert variant="danger" role="alert">
                  {failure}
                </Alert>
              )}
              {data.assessments.length === 0 ? (
                <p>{t('deepLink.none')}</p>
              ) : (
                <ListGroup className="mb-3" aria-label={t('deepLink.list')}>
                  {data.assessments.map((a) => (
                    <ListGroup.Item key={a.id} className="d-flex align-items-center gap-2">
                      <div className="flex-grow-1">
                        <div className="fw-semibold">{a.title}</div>
                        <div className="small text-body-secondary">
                          {a.totalPoints > 0
                            ? t('deepLink.points', { count: a.totalPoints, points: pointsText(a.totalPoints) })
                            : t('deepLink.noQuestions')}
                          {a.inLinkedClass && (
                            <Badge bg="primary" className="ms-2">
                              {t('deepLink.linkedClass')}
                            </Badge>
                          )}
                        </div>
                      </div>
                      <Button
                        size="sm"
                        disabled={a.totalPoints <= 0 || answering.isLoading}
                        onClick={() => void pick(a.id)}
                        aria-label={t('deepLink.addLabel', { title: a.title })}
                      >
                        {t('deepLink.add')}
                      </Button>
                    </ListGroup.Item>
                  ))}
                </ListGroup>
              )}
              <div className="d-flex gap-2 flex-wrap">
                <a className="btn btn-outline-primary" href="/assessments" target="_blank" rel="noopener">
                  {t('deepLink.create')}
                </a>
                <Button variant="outline-secondary" disabled={isFetching} onClick={() => void refetch()}>
                  {t('deepLink.refresh')}
                </Button>
              </div>
              <p className="small text-body-secondary mt-2 mb-0">{t('deepLink.note')}</p>
            </>
          )}
        </Card.Body>
      </Card>
    </div>
  );
}

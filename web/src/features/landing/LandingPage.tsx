// Signed-out "/": header, hero and the three pricing cards. Also
// pre-rendered into landing.html at build time (renderLandingPage.tsx): plain links, no inline
// styles (the CSP refuses style attributes in served HTML), nothing that needs a script to show.
// Join a Class opens the code-first join page, not the sign-in tab; students who already
// have an account sign in by Student Login, the same sign-in page as the teachers'.
import { Link } from 'react-router';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import Row from 'react-bootstrap/Row';
import { PlanCard } from '../../components/PlanCard';
import { useTranslation } from '../../i18n/react';
import { LANDING_PLANS } from './pricing';

export function LandingPage() {
  const { t } = useTranslation('landing');
  return (
    <>
      <Navbar bg="body" className="border-bottom" as="header">
        <Container>
          <Navbar.Brand as={Link} to="/" className="fw-bold text-primary">
            Checkpoint
          </Navbar.Brand>
          <Nav as="nav" aria-label={t('account')} className="ms-auto flex-row flex-wrap justify-content-end gap-2">
            <Link to="/auth?mode=login" className="btn btn-outline-primary">
              {t('teacherLogin')}
            </Link>
            <Link to="/auth?mode=login" className="btn btn-outline-primary">
              {t('studentLogin')}
            </Link>
            <Link to="/join-class" className="btn btn-primary">
              {t('joinClass')}
            </Link>
          </Nav>
        </Container>
      </Navbar>
      <main>
        <section className="py-5 bg-body-tertiary" aria-labelledby="hero-title">
          <Container className="text-center py-4">
            <h1 id="hero-title" className="display-5 fw-bold mb-3">
              {t('hero.title')}
            </h1>
            <p className="lead text-body-secondary mx-auto mb-4 col-lg-8">{t('hero.text')}</p>
            <div className="d-flex flex-wrap justify-content-center gap-2">
              <Link to="/auth?mode=login" className="btn btn-primary btn-lg">
                {t('teacherLogin')}
              </Link>
              <Link to="/auth?mode=signup&role=teacher" className="btn btn-outline-primary btn-lg">
                {t('teacherSignup')}
              </Link>
              <Link to="/auth?mode=login" className="btn btn-outline-primary btn-lg">
                {t('studentLogin')}
              </Link>
              <Link to="/join-class" className="btn btn-success btn-lg">
                {t('joinClass')}
              </Link>
            </div>
          </Container>
        </section>
        <section className="py-5" aria-labelledby="pricing-title">
          <Container>
            <h2 id="pricing-title" className="text-center mb-4">
              {t('pricing')}
            </h2>
            <Row xs={1} md={3} className="g-4">
              {LANDING_PLANS.map((plan) => (
                <Col key={plan.id}>
                  <PlanCard
                    name={t(`plans.${plan.id}.name`)}
                    price={plan.price ?? t(`plans.${plan.id}.price`)}
                    period={plan.period ? t(`plans.${plan.id}.period`) : ''}
                    features={plan.features.map((f) => t(`features.${f}`))}
                    popular={plan.popular}
                    note={plan.note ? t(`plans.${plan.id}.note`) : undefined}
                    popularLabel={t('popular')}
                    headingAs="h3"
                  >
                    <Link to="/auth" className={`btn ${plan.popular ? 'btn-primary' : 'btn-outline-primary'} w-100`}>
                      {t(plan.cta)}
                    </Link>
                  </PlanCard>
                </Col>
              ))}
            </Row>
          </Container>
        </section>
      </main>
      <footer className="py-4 border-top text-center text-body-secondary small">Checkpoint</footer>
    </>
  );
}

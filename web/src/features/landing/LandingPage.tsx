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
import { LANDING_PLANS } from './pricing';

export function LandingPage() {
  return (
    <>
      <Navbar bg="body" className="border-bottom" as="header">
        <Container>
          <Navbar.Brand as={Link} to="/" className="fw-bold text-primary">
            Checkpoint
          </Navbar.Brand>
          <Nav as="nav" aria-label="Account" className="ms-auto flex-row flex-wrap justify-content-end gap-2">
            <Link to="/auth?mode=login" className="btn btn-outline-primary">
              Teacher Login
            </Link>
            <Link to="/auth?mode=login" className="btn btn-outline-primary">
              Student Login
            </Link>
            <Link to="/join-class" className="btn btn-primary">
              Join a Class
            </Link>
          </Nav>
        </Container>
      </Navbar>
      <main>
        <section className="py-5 bg-body-tertiary" aria-labelledby="hero-title">
          <Container className="text-center py-4">
            <h1 id="hero-title" className="display-5 fw-bold mb-3">
              Formative assessment for every classroom
            </h1>
            <p className="lead text-body-secondary mx-auto mb-4 col-lg-8">
              Create AI-assisted assessments aligned to standards, follow every student&apos;s progress by performance
              level, and give each learner the support or enrichment they need.
            </p>
            <div className="d-flex flex-wrap justify-content-center gap-2">
              <Link to="/auth?mode=login" className="btn btn-primary btn-lg">
                Teacher Login
              </Link>
              <Link to="/auth?mode=signup&role=teacher" className="btn btn-outline-primary btn-lg">
                Teacher Signup
              </Link>
              <Link to="/auth?mode=login" className="btn btn-outline-primary btn-lg">
                Student Login
              </Link>
              <Link to="/join-class" className="btn btn-success btn-lg">
                Join a Class
              </Link>
            </div>
          </Container>
        </section>
        <section className="py-5" aria-labelledby="pricing-title">
          <Container>
            <h2 id="pricing-title" className="text-center mb-4">
              Pricing
            </h2>
            <Row xs={1} md={3} className="g-4">
              {LANDING_PLANS.map((plan) => (
                <Col key={plan.name}>
                  <PlanCard
                    name={plan.name}
                    price={plan.price}
                    period={plan.period}
                    features={plan.features}
                    popular={plan.popular}
                    note={plan.note}
                    headingAs="h3"
                  >
                    <Link to="/auth" className={`btn ${plan.popular ? 'btn-primary' : 'btn-outline-primary'} w-100`}>
                      {plan.cta}
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

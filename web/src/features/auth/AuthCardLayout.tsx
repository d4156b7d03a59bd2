// The frame of the signed-out one-card pages (forgot / reset password, verify email): the brand,
// a title and one card.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';

export function AuthCardLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-vh-100 bg-body-tertiary d-flex flex-column">
      <header className="py-3">
        <Container>
          <Link to="/" className="navbar-brand fw-bold text-primary fs-4">
            Checkpoint
          </Link>
        </Container>
      </header>
      <main className="flex-grow-1 d-flex align-items-start justify-content-center px-3 pb-5">
        <div className="w-100" style={{ maxWidth: 460 }}>
          <h1 className="h3 text-center mb-4">{title}</h1>
          <Card className="shadow-sm">
            <Card.Body className="p-4">{children}</Card.Body>
          </Card>
        </div>
      </main>
    </div>
  );
}

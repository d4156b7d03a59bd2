// The student dashboard when not enrolled in any class.
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';

export function NotEnrolledWelcome({ firstName }: { firstName?: string | undefined }) {
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h2 className="h3">Welcome to Checkpoint{firstName ? `, ${firstName}` : ''}!</h2>
        <p className="text-body-secondary mb-4">
          You&apos;re not enrolled in any classes yet. Join a class to start taking assessments.
        </p>
        <div className="d-flex flex-wrap justify-content-center gap-2">
          <Link to="/join-class" className="btn btn-primary">
            Enter Class Code
          </Link>
          <Link to="/browse-classes" className="btn btn-outline-primary">
            Browse Classes
          </Link>
        </div>
      </Card.Body>
    </Card>
  );
}

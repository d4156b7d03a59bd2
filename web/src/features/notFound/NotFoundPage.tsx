import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';

export function NotFoundPage() {
  return (
    <div className="d-flex justify-content-center py-5 px-3">
      <Card className="shadow-sm" style={{ maxWidth: 480, width: '100%' }}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-2">404 Page Not Found</h1>
          <p className="text-body-secondary">The page you are looking for does not exist.</p>
          <Link to="/" className="btn btn-primary">
            Go Home
          </Link>
        </Card.Body>
      </Card>
    </div>
  );
}

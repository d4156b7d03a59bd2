import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';

export function PracticeNotFound() {
  const navigate = useNavigate();
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h1 className="h4">Support material not found</h1>
        <Button variant="outline-primary" onClick={() => void navigate(-1)}>
          Go Back
        </Button>
      </Card.Body>
    </Card>
  );
}

// Teacher and admin "/" (spec §2 Teacher dashboard). Until the class service exists there is no class,
// so the page shows its no-class state: the welcome card.
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';

export const CREATE_CLASS_UNAVAILABLE = 'Classes arrive with the class service';

export function TeacherDashboard() {
  return (
    <>
      <h1 className="h2 mb-1">Assessment Dashboard</h1>
      <p className="text-body-secondary mb-4">Track student progress across formative assessments</p>
      <Card className="shadow-sm text-center">
        <Card.Body className="p-5">
          <h2 className="h4">Welcome to Checkpoint!</h2>
          <p className="text-body-secondary mb-4">Create your first class to start tracking student progress.</p>
          <span className="d-inline-block" title={CREATE_CLASS_UNAVAILABLE}>
            <Button disabled style={{ pointerEvents: 'none' }} aria-describedby="create-class-unavailable">
              Create Class
            </Button>
          </span>
          <span id="create-class-unavailable" className="visually-hidden">
            {CREATE_CLASS_UNAVAILABLE}
          </span>
        </Card.Body>
      </Card>
    </>
  );
}

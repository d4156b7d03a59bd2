import Spinner from 'react-bootstrap/Spinner';

export function PageSpinner() {
  return (
    <div className="d-flex justify-content-center align-items-center py-5" role="status" aria-live="polite">
      <Spinner animation="border" variant="primary" />
      <span className="visually-hidden">Loading...</span>
    </div>
  );
}

// A path id that is not a UUID cannot name anything: answer as for an id that is not yours.
import { NotFoundError } from '@checkpoint/service-kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidOr404(id: string, notFound: () => Error = () => new NotFoundError('Assessment not found')): string {
  if (!UUID.test(id)) throw notFound();
  return id.toLowerCase();
}

// A district admin's LTI platform registrations (by hand): each belongs to the admin's district;
// another district's is answered as absent. The URLs follow the egress rules of every URL a user
// gives (https, no internal address; loopback only where the service allows it).
import { randomUUID } from 'node:crypto';
import { AppError, checkOutboundUrl, NotFoundError } from '@checkpoint/service-kit';
import type { Registration, RegistrationInput } from '../api/registrations.schemas.ts';
import type { RegistrationsRepository, StoredRegistration } from '../data-access/registrations.repository.ts';
import { UUID } from './ids.ts';

const notFound = () => new NotFoundError('No such LTI registration in your district');
const taken = () =>
  new AppError('conflict', 'registration_exists', 'This issuer and client id are registered already', {
    clientId: 'Already registered for this issuer',
  });

function publicView({ tenantId: _t, ...r }: StoredRegistration): Registration {
  return r;
}

export function registrationUseCases(repo: RegistrationsRepository, options: { allowLoopback: boolean }) {
  const checkUrls = (r: RegistrationInput): RegistrationInput => {
    for (const field of ['issuer', 'jwksUrl', 'authorizationUrl', 'tokenUrl'] as const)
      checkOutboundUrl(r[field], { field, allowLoopback: options.allowLoopback });
    return r;
  };
  const id = (raw: string) => {
    if (!UUID.test(raw)) throw notFound();
    return raw.toLowerCase();
  };
  return {
    async list(tenantId: string): Promise<Registration[]> {
      return (await repo.list(tenantId)).map(publicView);
    },
    async get(tenantId: string, raw: string): Promise<Registration> {
      const found = await repo.find(tenantId, id(raw));
      if (!found) throw notFound();
      return publicView(found);
    },
    async create(tenantId: string, input: RegistrationInput): Promise<Registration> {
      const created = await repo.insert(tenantId, randomUUID(), checkUrls(input));
      if (!created) throw taken();
      return publicView(created);
    },
    async update(tenantId: string, raw: string, input: RegistrationInput): Promise<Registration> {
      const regId = id(raw);
      const checked = checkUrls(input);
      const updated = await repo.update(tenantId, regId, checked);
      if (updated === 'missing') throw notFound();
      if (updated === 'taken') throw taken();
      return publicView(updated);
    },
    async remove(tenantId: string, raw: string): Promise<void> {
      if (!(await repo.remove(tenantId, id(raw)))) throw notFound();
    },
  };
}

export type RegistrationUseCases = ReturnType<typeof registrationUseCases>;

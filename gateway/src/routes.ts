// Which service owns which /api path: the routes of each service in
// packages/service-registry/services.js (the pattern with more segments wins).
import { routeTable, services, SERVICE_NAMES, type ServiceName } from '@checkpoint/service-registry';

export { SERVICE_NAMES as SERVICES, type ServiceName };

export const serviceForPath: (path: string) => ServiceName | undefined = routeTable(services);

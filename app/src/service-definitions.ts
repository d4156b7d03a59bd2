// The ServiceDefinition of each service of packages/service-registry/services.js, for the
// processes that run several in one (the all-in-one, migrate). Keyed by the list's names: a name
// without its definition here is a type error, a definition under another name an error at start.
import { analyticsService } from '@checkpoint/analytics';
import { assessmentService } from '@checkpoint/assessment';
import { classService } from '@checkpoint/class';
import { generationService } from '@checkpoint/generation';
import { identityService } from '@checkpoint/identity';
import { integrationsService } from '@checkpoint/integrations';
import type { ServiceDefinition } from '@checkpoint/service-kit';
import { services, type Registry, type ServiceName } from '@checkpoint/service-registry';

const DEFINITIONS = {
  identity: identityService,
  class: classService,
  assessment: assessmentService,
  generation: generationService,
  analytics: analyticsService,
  integrations: integrationsService,
} as unknown as Record<ServiceName, ServiceDefinition>;

/** The definitions of a list's services, in its order; throws for a name without one. */
export function definitionsFor(
  registry: Registry,
  definitions: Record<string, ServiceDefinition> = DEFINITIONS,
): ServiceDefinition[] {
  return registry.map(({ name }) => {
    const def = definitions[name];
    if (def?.name !== name)
      throw new Error(`No ServiceDefinition named "${name}" (app/src/service-definitions.ts): got ${def?.name}`);
    return def;
  });
}

/** Every service's definition, in the list's (start) order. */
export const serviceDefinitions: ServiceDefinition[] = definitionsFor(services);

// The services' list (../services.js) and what is derived from it: a service's <NAME>_URL
// variable, its Postgres schema and role, the privacy fan-out, the gateway's route table.
import { services } from '../services.js';

export { services };

/** One service of the list (services.js says what each field means). */
export interface ServiceEntry {
  readonly name: string;
  readonly port: number;
  readonly privacy: boolean;
  readonly routes: readonly string[];
}

export type Registry = readonly ServiceEntry[];
export type ServiceName = (typeof services)[number]['name'];

export const SERVICE_NAMES: readonly ServiceName[] = services.map((s) => s.name);

/** The gateway's variable holding a service's base URL: IDENTITY_URL. */
export const urlVariable = (name: string): string => `${name.toUpperCase()}_URL`;
/** The Postgres role that owns a service's schema (the schema is named after the service). */
export const databaseRole = (name: string): string => `cp_${name}`;

/** The services that answer a district's privacy requests, in start order. */
export function privacyServices<N extends string>(registry: readonly (ServiceEntry & { name: N })[]): N[] {
  return registry.filter((s) => s.privacy).map((s) => s.name);
}

const NAME = /^[a-z][a-z0-9]*$/;
const ROUTE = /^\/api(\/(\*|[^/*]+))*(\/\*\*)?$/;

interface Pattern<N extends string> {
  service: N;
  pattern: string;
  /** The segments before a trailing `**`, the leading empty one included. */
  segments: string[];
  prefix: boolean;
}

function parsePattern<N extends string>(service: N, pattern: string): Pattern<N> {
  const prefix = pattern.endsWith('/**');
  const segments = (prefix ? pattern.slice(0, -3) : pattern).split('/');
  return { service, pattern, segments, prefix };
}

/** Whether some path matches both patterns of the same length (at no place two different words). */
function overlap(a: Pattern<string>, b: Pattern<string>): boolean {
  return a.segments.every((s, i) => s === '*' || b.segments[i] === '*' || s === b.segments[i]);
}

/** What is wrong with a list of services (empty: nothing). */
export function registryProblems(registry: Registry): string[] {
  const problems: string[] = [];
  const seen = (key: (s: ServiceEntry) => unknown, what: string) => {
    const found = new Map<unknown, string>();
    for (const s of registry) {
      const other = found.get(key(s));
      if (other !== undefined) problems.push(`${s.name} and ${other} have the same ${what}`);
      found.set(key(s), s.name);
    }
  };
  seen((s) => s.name, 'name');
  seen((s) => s.port, 'port');
  for (const s of registry) {
    if (!NAME.test(s.name)) problems.push(`${s.name}: a name is lower-case letters and digits`);
    if (!Number.isInteger(s.port) || s.port < 1024 || s.port > 65535) problems.push(`${s.name}: port ${s.port}`);
    for (const r of s.routes)
      if (!ROUTE.test(r)) problems.push(`${s.name}: route ${r} is not /api/… (*, /** at the end)`);
  }
  const patterns = registry.flatMap((s) => s.routes.filter((r) => ROUTE.test(r)).map((r) => parsePattern(s.name, r)));
  for (const [i, a] of patterns.entries())
    for (const b of patterns.slice(i + 1))
      if (a.segments.length === b.segments.length && overlap(a, b))
        problems.push(`routes ${a.pattern} (${a.service}) and ${b.pattern} (${b.service}) claim the same paths`);
  return problems;
}

/** Whether a path, split at its slashes, matches the pattern. */
function matches(p: Pattern<string>, parts: string[]): boolean {
  if (p.prefix) {
    if (parts.length < p.segments.length) return false;
  } else {
    // One trailing slash is allowed: /api/all-results/.
    const length = parts.length === p.segments.length + 1 && parts.at(-1) === '' ? parts.length - 1 : parts.length;
    if (length !== p.segments.length) return false;
  }
  return p.segments.every((s, i) => (s === '*' ? parts[i] !== '' : s === parts[i]));
}

/**
 * The service that owns a path (no query string), or undefined: of the patterns that match, the
 * one with the most segments. Throws when the list is not valid (registryProblems).
 */
export function routeTable<N extends string>(
  registry: readonly (ServiceEntry & { name: N })[],
): (path: string) => N | undefined {
  const problems = registryProblems(registry);
  if (problems.length) throw new Error(`The list of services is not valid: ${problems.join('; ')}`);
  const patterns = registry
    .flatMap((s) => s.routes.map((r) => parsePattern(s.name, r)))
    .sort((a, b) => b.segments.length - a.segments.length);
  return (path) => {
    const parts = path.split('/');
    return patterns.find((p) => matches(p, parts))?.service;
  };
}

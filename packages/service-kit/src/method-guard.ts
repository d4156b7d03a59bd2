// Methods on declared paths: OPTIONS lists what a path declares, a method it does not declare
// answers 405 with the same list in Allow; an unknown path stays 404. HEAD goes wherever GET does
// (Express runs the GET handler without the body). A literal path (`/api/classes/archived`) is
// its own resource even where a parameter route (`/api/classes/:id`) would also match it: only
// its own methods are allowed, and any other answers 405 before the parameter route can take it.
import type { RequestHandler } from 'express';
import { AppError } from './errors.ts';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Express-style path (`/api/classes/:id`) → a matcher like the ApiRouter's: params are one segment,
 * case-sensitive (a path in another case is no declared path: 404, as in the routes), optional
 * trailing slash.
 */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** How a literal path is looked up: what its pattern matches (one trailing slash) is one key. */
const literalKey = (path: string) => path.replace(/\/$/, '');

export class DeclaredMethods {
  private readonly byPath = new Map<string, { pattern: RegExp; literal: boolean; methods: Set<string> }>();
  /**
   * The literal paths by literalKey: every call's method check is one lookup here, not a test of
   * every declared path's pattern (only a literal path refuses a method before the routes).
   */
  private readonly literals = new Map<string, Set<string>[]>();

  add(path: string, method: string): void {
    let entry = this.byPath.get(path);
    if (!entry) {
      const literal = !path.split('/').some((segment) => segment.startsWith(':'));
      this.byPath.set(path, (entry = { pattern: pathPattern(path), literal, methods: new Set() }));
      if (literal) {
        const key = literalKey(path);
        this.literals.set(key, [...(this.literals.get(key) ?? []), entry.methods]);
      }
    }
    entry.methods.add(method.toUpperCase());
  }

  /** The methods declared on the literal path `path` is, if it is one (else undefined). */
  private literalMethods(path: string): Set<string>[] | undefined {
    // A path with a double slash or an empty key is no literal's (their patterns refuse them too).
    const key = literalKey(path);
    return key.includes('//') ? undefined : this.literals.get(key);
  }

  merge(other: DeclaredMethods): void {
    for (const [path, { methods }] of other.byPath) for (const m of methods) this.add(path, m);
  }

  /**
   * The methods `path` allows, in the usual order: a matching literal path's own, else those of
   * every declared path matching it; empty when none matches.
   */
  allowed(path: string): string[] {
    const matching = [...this.byPath.values()].filter(({ pattern }) => pattern.test(path));
    const literal = matching.filter((entry) => entry.literal);
    const allow = new Set<string>();
    for (const { methods } of literal.length > 0 ? literal : matching) for (const m of methods) allow.add(m);
    if (allow.size === 0) return [];
    if (allow.has('GET')) allow.add('HEAD');
    allow.add('OPTIONS');
    return METHOD_ORDER.filter((m) => allow.has(m));
  }

  /**
   * Mount before the routes: answers OPTIONS on a declared path with 204 and Allow, and a method a
   * literal path does not declare with 405 (a parameter route would take it otherwise); anything
   * else goes on.
   */
  options(): RequestHandler {
    return (req, res, next) => {
      // Not OPTIONS: only a literal path can answer here (405), and only for a method it does not declare.
      if (req.method !== 'OPTIONS') {
        const literal = this.literalMethods(req.path);
        if (!literal || literal.some((methods) => methods.has(req.method))) return next();
      }
      const allow = this.allowed(req.path);
      if (allow.length === 0) return next();
      if (req.method === 'OPTIONS') {
        res.setHeader('Allow', allow.join(', '));
        res.status(204).end();
        return;
      }
      if (allow.includes(req.method) || !this.isLiteral(req.path)) return next();
      res.setHeader('Allow', allow.join(', '));
      next(
        new AppError(
          'method_not_allowed',
          'method_not_allowed',
          `${req.method} is not allowed here; allowed: ${allow.join(', ')}`,
        ),
      );
    };
  }

  private isLiteral(path: string): boolean {
    for (const { pattern, literal } of this.byPath.values()) if (literal && pattern.test(path)) return true;
    return false;
  }

  /** 405 with Allow for a declared path that no route took (its method is not declared). Mount after the routes. */
  notAllowed(): RequestHandler {
    return (req, res, next) => {
      const allow = this.allowed(req.path);
      if (allow.length === 0) return next();
      res.setHeader('Allow', allow.join(', '));
      next(
        new AppError(
          'method_not_allowed',
          'method_not_allowed',
          `${req.method} is not allowed here; allowed: ${allow.join(', ')}`,
        ),
      );
    };
  }
}

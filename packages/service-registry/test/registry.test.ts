import { describe, expect, it } from 'vitest';
import {
  privacyServices,
  registryProblems,
  routeTable,
  services,
  urlVariable,
  type ServiceEntry,
} from '../src/index.ts';

const entry = (name: string, port: number, routes: string[]): ServiceEntry => ({ name, port, privacy: false, routes });

describe('the list of services', () => {
  it('when the list is read, then it has no problem', () => {
    expect(registryProblems(services)).toEqual([]);
  });

  it('when two services claim the same paths, then the list is refused naming both routes', () => {
    const list = [entry('one', 9001, ['/api/things/**']), entry('two', 9002, ['/api/things/**'])];
    expect(() => routeTable(list)).toThrow('routes /api/things/** (one) and /api/things/** (two) claim the same paths');
    expect(registryProblems([entry('one', 9001, ['/api/a/*']), entry('two', 9002, ['/api/a/b'])])).toHaveLength(1);
  });

  it('when a name, port or route is malformed or repeated, then each is named', () => {
    const problems = registryProblems([
      entry('Bad-Name', 80, ['/things']),
      entry('ok', 9001, ['/api/x']),
      entry('ok', 9001, ['/api/y']),
    ]);
    expect(problems).toEqual([
      'ok and ok have the same name',
      'ok and ok have the same port',
      'Bad-Name: a name is lower-case letters and digits',
      'Bad-Name: port 80',
      'Bad-Name: route /things is not /api/… (*, /** at the end)',
    ]);
  });

  it('when a path is under a prefix and matches a longer pattern, then the longer pattern wins', () => {
    const route = routeTable([entry('outer', 9001, ['/api/box/**']), entry('inner', 9002, ['/api/box/*/lid'])]);
    expect(route('/api/box')).toBe('outer');
    expect(route('/api/box/')).toBe('outer');
    expect(route('/api/box/7/lid')).toBe('inner');
    expect(route('/api/box/7/lid/')).toBe('inner');
    expect(route('/api/box/7/lid/x')).toBe('outer');
    expect(route('/api/box//lid')).toBe('outer');
    expect(route('/api/boxes')).toBeUndefined();
    expect(route('/api/box/7/lid//')).toBe('outer');
  });

  it("when the services' variables and privacy are derived, then they follow the names", () => {
    expect(services.map((s) => urlVariable(s.name))).toEqual([
      'IDENTITY_URL',
      'CLASS_URL',
      'ASSESSMENT_URL',
      'GENERATION_URL',
      'ANALYTICS_URL',
      'INTEGRATIONS_URL',
    ]);
    expect(privacyServices(services)).toEqual([
      'identity',
      'class',
      'assessment',
      'generation',
      'analytics',
      'integrations',
    ]);
  });
});

import { ValidationError } from '@checkpoint/service-kit';
import { describe, expect, it } from 'vitest';
import { entraTenantOf, kindOfIssuer, sameIssuer } from './sso-connection.ts';

const TID = '72f988bf-86f1-41af-91ab-2d7cd011db47';

describe('the kind of an issuer', () => {
  it.each([
    ['https://accounts.google.com', 'google'],
    [`https://login.microsoftonline.com/${TID}/v2.0`, 'entra'],
    ['https://clever.com/oauth', 'generic'],
    ['https://launchpad.classlink.com', 'generic'],
    ['http://127.0.0.1:4567', 'generic'],
  ])('when the issuer is %s, then the kind is %s', (issuer, kind) => {
    expect(kindOfIssuer(issuer)).toBe(kind);
  });

  it.each([
    'https://login.microsoftonline.com/common/v2.0',
    'https://login.microsoftonline.com/organizations/v2.0',
    'https://login.microsoftonline.com/consumers/v2.0',
    'https://login.microsoftonline.com/not-a-guid/v2.0',
    'http://idp.example.com',
    'not a url',
  ])('when the issuer is %s, then it is refused naming the issuer field', (issuer) => {
    try {
      kindOfIssuer(issuer);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).fields ?? {})).toEqual(['issuer']);
    }
  });

  it('when an Entra issuer is read, then its directory id comes out; a trailing slash is the same issuer', () => {
    expect(entraTenantOf(`https://login.microsoftonline.com/${TID.toUpperCase()}/v2.0`)).toBe(TID);
    expect(entraTenantOf('https://login.microsoftonline.com/common/v2.0')).toBeUndefined();
    expect(sameIssuer('https://a.example/', 'https://a.example')).toBe(true);
    expect(sameIssuer('https://a.example', 'https://b.example')).toBe(false);
  });
});

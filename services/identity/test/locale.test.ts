// The user's interface language (issue 32): `locale` on GET|PUT /api/auth/user, and the mails
// identity sends to the user written in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpByLink, startHarness, type Harness } from './helpers.ts';
import { localeFromAcceptLanguage } from '../src/domain/locales.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

describe("the user's locale", () => {
  it('when never chosen, then GET follows the browser (Accept-Language), else English', async () => {
    const { browser } = await signUpByLink(h, { email: `loc.browser.${Date.now()}@example.com` });
    expect((await browser.request('GET', '/api/auth/user')).body.locale).toBe('en');
    const spanish = await browser.request('GET', '/api/auth/user', undefined, { 'accept-language': 'es-MX,es;q=0.9' });
    expect(spanish.body.locale).toBe('es');
    const french = await browser.request('GET', '/api/auth/user', undefined, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(french.body.locale).toBe('en');
  });

  it('when the user PUTs locale es alone, then it is kept (names and email unchanged) whatever the browser says', async () => {
    const { browser, user } = await signUpByLink(h, { email: `loc.put.${Date.now()}@example.com` });
    const put = await browser.request('PUT', '/api/auth/user', { locale: 'es' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ locale: 'es', email: user.email, firstName: 'Ada', lastName: 'Lovelace' });
    const me = await browser.request('GET', '/api/auth/user', undefined, { 'accept-language': 'en-US' });
    expect(me.body.locale).toBe('es');
    // With the names, as the profile form sends them.
    const both = await browser.request('PUT', '/api/auth/user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: user.email,
      locale: 'en',
    });
    expect(both).toMatchObject({ status: 200, body: { locale: 'en' } });
  });

  it('when the locale is not a supported one, then 400 names locale; an empty change is 400 too', async () => {
    const { browser } = await signUpByLink(h, { email: `loc.bad.${Date.now()}@example.com` });
    const bad = await browser.request('PUT', '/api/auth/user', { locale: 'fr' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('locale');
    expect((await browser.request('PUT', '/api/auth/user', {})).status).toBe(400);
  });

  it('when a Spanish-speaking user asks for a password reset, then the mail is in Spanish', async () => {
    const { browser, user } = await signUpByLink(h, { email: `loc.mail.${Date.now()}@example.com` });
    expect((await browser.request('PUT', '/api/auth/user', { locale: 'es' })).status).toBe(200);
    expect((await browser.request('POST', '/api/auth/password/forgot', { email: user.email })).status).toBeLessThan(
      300,
    );
    const { rows } = await h.db.query<{ subject: string; text: string }>(
      `select subject, text from outgoing_mail where "to" = $1 and text like '%/reset-password?token=%' order by created_at desc limit 1`,
      [user.email],
    );
    expect(rows[0]?.subject).toBe('Restablezca su contraseña de Checkpoint');
    expect(rows[0]?.text).toContain('Elegir una contraseña nueva');
    expect(rows[0]?.text).toContain('Este enlace vence en 1 hora.');
  });

  it('when a person signs up from the Spanish form, then the link mail is in Spanish and the account it makes is es; a second sign-up gets the Spanish "you have an account" note', async () => {
    const email = `loc.signup.${Date.now()}@example.com`;
    const { browser } = await signUpByLink(h, { email, locale: 'es' });
    const { rows } = await h.db.query<{ subject: string; text: string }>(
      `select subject, text from outgoing_mail where "to" = $1 order by created_at`,
      [email],
    );
    expect(rows[0]?.subject).toBe('Termine de crear su cuenta de Checkpoint');
    expect(rows[0]?.text).toContain('Crear mi cuenta: ');
    expect(rows[0]?.text).toContain('Este enlace vence en');
    // The account keeps the form's language, whatever the browser says later.
    const me = await browser.request('GET', '/api/auth/user', undefined, { 'accept-language': 'en-US' });
    expect(me.body.locale).toBe('es');

    const again = await browser.request('POST', '/api/auth/simple-signup', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: 'correct horse battery staple',
      role: 'teacher',
      locale: 'es',
    });
    expect(again.status).toBe(202);
    const note = await h.db.query<{ subject: string; text: string }>(
      `select subject, text from outgoing_mail where "to" = $1 order by created_at desc limit 1`,
      [email],
    );
    expect(note.rows[0]?.subject).toBe('Usted ya tiene una cuenta de Checkpoint');
    expect(note.rows[0]?.text).toContain('inicie sesión en http');
    // An unknown locale is 400 naming it (without one, English: email-links.test.ts).
    const plain = await browser.request('POST', '/api/auth/simple-signup', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `loc.plain.${Date.now()}@example.com`,
      password: 'correct horse battery staple',
      role: 'teacher',
      locale: 'fr',
    });
    expect(plain.status).toBe(400);
    expect(JSON.stringify(plain.body)).toContain('locale');
  });

  it('reads Accept-Language by weight', () => {
    expect(localeFromAcceptLanguage('fr;q=1, es;q=0.8, en;q=0.5')).toBe('es');
    expect(localeFromAcceptLanguage('en;q=0.4, es;q=0.9')).toBe('es');
    expect(localeFromAcceptLanguage(undefined)).toBe('en');
    expect(localeFromAcceptLanguage('es;q=0')).toBe('en');
  });
});

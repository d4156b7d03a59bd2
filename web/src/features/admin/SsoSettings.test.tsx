import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { SsoSettings } from './SsoSettings';

const CONNECTED = {
  connection: {
    id: '0b7e7b1e-2222-4b4b-8b8b-000000000002',
    issuer: 'https://accounts.google.com',
    kind: 'google',
    clientId: '1234.apps.googleusercontent.com',
    hasSecret: true,
    emailDomains: ['district.org'],
    displayName: 'Springfield Schools',
    enabled: true,
    updatedAt: '2026-01-01T00:00:00.000Z',
    initiateLoginUri: 'https://app.example/api/auth/sso/0b7e7b1e-2222-4b4b-8b8b-000000000002/initiate',
  },
  passwordSignIn: true,
  districtDomains: ['district.org', 'staff.district.org'],
  redirectUri: 'https://app.example/api/auth/google/callback',
};

describe('SsoSettings', () => {
  it('when the district has a connection, then it is shown without its secret, with the URIs to register', async () => {
    stubFetch({ 'GET /api/district/sso': () => jsonResponse(200, CONNECTED) });
    renderWithProviders(<SsoSettings />);
    expect(await screen.findByLabelText('Issuer')).toHaveValue('https://accounts.google.com');
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
    expect(screen.getByLabelText('Client secret')).toHaveAttribute(
      'placeholder',
      'Stored (encrypted): leave empty to keep it',
    );
    expect(screen.getByText(CONNECTED.redirectUri)).toBeInTheDocument();
    expect(screen.getByLabelText('district.org')).toBeChecked();
    expect(screen.getByLabelText('staff.district.org')).not.toBeChecked();
    expect(screen.getByLabelText(/sign in with an email and password/)).not.toBeDisabled();
  });

  it('when saving fails discovery, then the issuer field shows the reason and no secret is sent back empty', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      'GET /api/district/sso': () => jsonResponse(200, CONNECTED),
      'PUT /api/district/sso': () =>
        jsonResponse(400, {
          message: 'Could not read the OpenID Connect configuration',
          code: 'validation_failed',
          fields: { issuer: 'Discovery failed at https://idp.example/.well-known/openid-configuration' },
        }),
    });
    const { user } = renderWithProviders(<SsoSettings />);
    const issuer = await screen.findByLabelText('Issuer');
    await user.clear(issuer);
    await user.type(issuer, 'https://idp.example');
    await user.click(screen.getByRole('button', { name: 'Save connection' }));
    expect(await screen.findByText(/Discovery failed at https:\/\/idp.example/)).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    const body = JSON.parse(String(put?.[1]?.body));
    expect(body).toMatchObject({ issuer: 'https://idp.example', emailDomains: ['district.org'] });
    expect(body).not.toHaveProperty('clientSecret');
  });

  it('when there is no enabled connection, then password sign-in cannot be turned off', async () => {
    stubFetch({ 'GET /api/district/sso': () => jsonResponse(200, { ...CONNECTED, connection: null }) });
    renderWithProviders(<SsoSettings />);
    await waitFor(() => expect(screen.getByLabelText(/sign in with an email and password/)).toBeDisabled());
    expect(screen.getByText(/can be turned off once an enabled SSO connection exists/)).toBeInTheDocument();
  });
});

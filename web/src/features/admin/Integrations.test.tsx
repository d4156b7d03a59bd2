import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { Integrations } from './Integrations';
import type { LtiRegistrationList } from './integrationsApi';

const BASE = '/api/integrations/lti/registrations';
const REG = {
  id: '0b7e7b1e-3333-4b4b-8b8b-000000000003',
  issuer: 'https://canvas.instructure.com',
  clientId: '10000000000042',
  deploymentIds: ['12:abc', '13:def'],
  jwksUrl: 'https://sso.canvaslms.com/api/lti/security/jwks',
  authorizationUrl: 'https://sso.canvaslms.com/api/lti/authorize_redirect',
  tokenUrl: 'https://sso.canvaslms.com/login/oauth2/token',
  adminRoleFromLms: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const LIST: LtiRegistrationList = {
  registrations: [REG],
  tool: {
    loginUrl: 'https://app.example/api/lti/login',
    launchUrl: 'https://app.example/api/lti/launch',
    jwksUrl: 'https://app.example/api/lti/jwks',
  },
};

afterEach(() => {
  vi.unstubAllGlobals();
});

const bodyOf = (fetchMock: ReturnType<typeof stubFetch>, method: string) =>
  JSON.parse(String(fetchMock.mock.calls.find(([, init]) => init?.method === method)?.[1]?.body));

describe('Integrations', () => {
  it('when the district has a registration, then it is listed with the URLs to give the LMS, each copyable', async () => {
    stubFetch({ [`GET ${BASE}`]: () => jsonResponse(200, LIST) });
    const writeText = vi.fn(async () => {});
    const { user } = renderWithProviders(<Integrations />);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const table = await screen.findByRole('table', { name: 'LMS registrations' });
    const row = within(table).getByRole('row', { name: /canvas\.instructure\.com/ });
    expect(within(row).getByText('10000000000042')).toBeInTheDocument();
    expect(within(row).getByText('12:abc, 13:def')).toBeInTheDocument();
    expect(screen.getByText(LIST.tool.loginUrl)).toBeInTheDocument();
    expect(screen.getByText(LIST.tool.launchUrl)).toBeInTheDocument();
    expect(screen.getByText(LIST.tool.jwksUrl)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy Redirect URL' }));
    expect(writeText).toHaveBeenCalledWith(LIST.tool.launchUrl);
  });

  it('when a registration added by hand is refused, then the fields show the API’s reasons; fixed, it is sent', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    let attempt = 0;
    const fetchMock = stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(200, { ...LIST, registrations: [] }),
      [`POST ${BASE}`]: () =>
        ++attempt === 1
          ? jsonResponse(400, {
              message: 'The address is an address of a private or internal network',
              code: 'validation_failed',
              fields: {
                jwksUrl: 'Must be a public address (not an address of a private or internal network)',
                'deploymentIds.1': 'Too long',
              },
            })
          : jsonResponse(201, REG),
    });
    const { user } = renderWithProviders(<Integrations />);
    expect(await screen.findByText('No LMS is connected yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a registration by hand' }));
    const form = screen.getByRole('form', { name: 'New LMS registration' });
    await user.type(within(form).getByLabelText('Issuer'), REG.issuer);
    await user.type(within(form).getByLabelText('Client ID'), REG.clientId);
    await user.type(within(form).getByLabelText('Deployment IDs'), '12:abc, 13:def');
    await user.type(within(form).getByLabelText('Platform JWKS URL'), 'https://10.0.0.1/jwks');
    await user.type(within(form).getByLabelText('Authorization URL'), REG.authorizationUrl);
    await user.type(within(form).getByLabelText('Token URL'), REG.tokenUrl);
    await user.click(within(form).getByRole('button', { name: 'Add registration' }));
    expect(await within(form).findByText(/Must be a public address/)).toBeInTheDocument();
    expect(within(form).getByText('Too long')).toBeInTheDocument();
    expect(within(form).getByLabelText('Platform JWKS URL')).toHaveClass('is-invalid');
    expect(bodyOf(fetchMock, 'POST')).toEqual({
      adminRoleFromLms: false,
      issuer: REG.issuer,
      clientId: REG.clientId,
      deploymentIds: ['12:abc', '13:def'],
      jwksUrl: 'https://10.0.0.1/jwks',
      authorizationUrl: REG.authorizationUrl,
      tokenUrl: REG.tokenUrl,
    });

    await user.clear(within(form).getByLabelText('Platform JWKS URL'));
    await user.type(within(form).getByLabelText('Platform JWKS URL'), REG.jwksUrl);
    await user.click(within(form).getByRole('button', { name: 'Add registration' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New LMS registration' })).not.toBeInTheDocument());
    expect(attempt).toBe(2);
  });

  it('when the admin edits a registration, then the form holds its values and the change is put', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(200, LIST),
      [`PUT ${BASE}/${REG.id}`]: () => jsonResponse(200, { ...REG, deploymentIds: ['12:abc'] }),
    });
    const { user } = renderWithProviders(<Integrations />);
    await user.click(await screen.findByRole('button', { name: `Edit ${REG.issuer} ${REG.clientId}` }));
    const form = screen.getByRole('form', { name: 'Edit LMS registration' });
    expect(within(form).getByLabelText('Issuer')).toHaveValue(REG.issuer);
    const deployments = within(form).getByLabelText('Deployment IDs');
    expect(deployments).toHaveValue('12:abc\n13:def');
    await user.clear(deployments);
    await user.type(deployments, '12:abc');
    // The LMS administrators' role stays as it was: a save never turns it off unasked.
    expect(within(form).getByRole('checkbox', { name: /administrators become district admins/ })).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(bodyOf(fetchMock, 'PUT')).toMatchObject({ deploymentIds: ['12:abc'], adminRoleFromLms: true }),
    );
  });

  it('when the admin removes a registration after confirming, then it is deleted', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const fetchMock = stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(200, LIST),
      [`DELETE ${BASE}/${REG.id}`]: () => new Response(null, { status: 204 }),
    });
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
    const { user } = renderWithProviders(<Integrations />);
    await user.click(await screen.findByRole('button', { name: `Remove ${REG.issuer} ${REG.clientId}` }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true));
  });

  it('when the admin creates a dynamic registration link, then its URL is shown once with its expiry', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const link = { url: 'https://app.example/api/lti/register?rt=abc123', expiresAt: '2026-02-01T12:00:00.000Z' };
    stubFetch({
      [`GET ${BASE}`]: () => jsonResponse(200, LIST),
      'POST /api/integrations/lti/registration-links': () => jsonResponse(201, link),
    });
    const { user } = renderWithProviders(<Integrations />);
    expect(await screen.findByText(/Moodle and Canvas can register Checkpoint themselves/)).toBeInTheDocument();
    expect(screen.queryByTestId('lti-registration-link')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create a dynamic registration link' }));
    const shown = await screen.findByTestId('lti-registration-link');
    expect(within(shown).getByText(link.url)).toBeInTheDocument();
    expect(within(shown).getByText(/Used once; expires/)).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copy Registration URL' })).toBeInTheDocument();
  });
});

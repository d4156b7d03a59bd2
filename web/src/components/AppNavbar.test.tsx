import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STUDENT, stubFetch, TEACHER } from '../test/fetchStub';
import { renderWithProviders } from '../test/test-utils';
import { AppNavbar } from './AppNavbar';

describe('AppNavbar', () => {
  it('when a teacher opens the user menu and the side menu, then both offer the plan and Upgrade Plan', async () => {
    stubFetch({});
    const { user } = renderWithProviders(<AppNavbar user={TEACHER} />);
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    expect(screen.getByText('Current Plan: Free Trial')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Plan' })).toHaveAttribute('href', '/subscription');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const side = await screen.findByRole('dialog');
    expect(within(side).getByRole('link', { name: 'Upgrade Plan' })).toBeInTheDocument();
  });

  it('when a student opens the user menu and the side menu, then no plan or billing shows, only Profile, Settings and Sign out', async () => {
    stubFetch({});
    const { user } = renderWithProviders(<AppNavbar user={STUDENT} />);
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    expect(screen.getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByText(/Current Plan/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade Plan' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const side = await screen.findByRole('dialog');
    expect(within(side).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(within(side).queryByRole('link', { name: 'Upgrade Plan' })).not.toBeInTheDocument();
  });
});

// The admin sections built by other parts of the product, each under its own URL (AdminLayout):
// sign-in settings (the district's SSO connection and password sign-in), roster import, LMS
// integrations (LTI) and privacy operations.
import { Integrations } from './Integrations';
import { PrivacyPage } from './PrivacyPage';
import { RosterImport } from './RosterImport';
import { SsoSettings } from './SsoSettings';

export function AdminSignInSection() {
  return (
    <>
      <h1 className="h2 mb-1">Sign-in</h1>
      <p className="text-body-secondary mb-4">How the people of your district sign in</p>
      <SsoSettings />
    </>
  );
}

export function AdminRosterSection() {
  return <RosterImport />;
}

export function AdminIntegrationsSection() {
  return (
    <>
      <h1 className="h2 mb-1">Integrations</h1>
      <p className="text-body-secondary mb-4">
        Your district&apos;s LMS (Canvas, Schoology, Moodle, Brightspace) through LTI 1.3
      </p>
      <Integrations />
    </>
  );
}

export function AdminPrivacySection() {
  return <PrivacyPage />;
}

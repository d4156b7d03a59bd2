// The admin sections built by other parts of the product, each under its own URL (AdminLayout):
// sign-in settings (the district's SSO connection and password sign-in), roster import, LMS
// integrations (LTI) and privacy operations.
import { useTranslation } from '../../i18n/react';
import { Integrations } from './Integrations';
import { PrivacyPage } from './PrivacyPage';
import { RosterImport } from './RosterImport';
import { SsoSettings } from './SsoSettings';

export function AdminSignInSection() {
  const { t } = useTranslation('admin');
  return (
    <>
      <h1 className="h2 mb-1">{t('signIn.title')}</h1>
      <p className="text-body-secondary mb-4">{t('signIn.intro')}</p>
      <SsoSettings />
    </>
  );
}

export function AdminRosterSection() {
  return <RosterImport />;
}

export function AdminIntegrationsSection() {
  const { t } = useTranslation('admin');
  return (
    <>
      <h1 className="h2 mb-1">{t('integrations.title')}</h1>
      <p className="text-body-secondary mb-4">{t('integrations.intro')}</p>
      <Integrations />
    </>
  );
}

export function AdminPrivacySection() {
  return <PrivacyPage />;
}

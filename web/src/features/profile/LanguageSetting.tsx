// The interface's language (issue 32): saved on the user (PUT /api/auth/user `locale`), so it
// follows them to every device and their e-mails; until chosen, the browser's language.
import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useTranslation } from '../../i18n/react';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { browserLocale, isLocale, LOCALES } from '../../i18n/locales';
import { useUpdateUserMutation } from '../../session/authApi';
import type { User } from '../../session/user';

export function LanguageSetting({ user }: { user: User }) {
  const { t } = useTranslation('common');
  const id = useId();
  const toast = useToast();
  const [updateUser, { isLoading }] = useUpdateUserMutation();
  const current = isLocale(user.locale) ? user.locale : browserLocale();

  const choose = async (value: string) => {
    if (!isLocale(value) || value === current) return;
    try {
      await updateUser({ locale: value }).unwrap();
    } catch (error) {
      toast({
        title: t('language.failedTitle'),
        description: serverMessageOr(error, t('language.failed')),
        variant: 'destructive',
      });
    }
  };

  return (
    <Card className="shadow-sm mt-4">
      <Card.Body>
        <Form.Group controlId={id}>
          <Form.Label className="h5">{t('language.label')}</Form.Label>
          <Form.Select value={current} disabled={isLoading} onChange={(e) => void choose(e.target.value)}>
            {LOCALES.map((l) => (
              // Each language in its own name and language, so a reader finds theirs.
              <option key={l.code} value={l.code} lang={l.code}>
                {l.name}
              </option>
            ))}
          </Form.Select>
          <Form.Text>{t('language.help')}</Form.Text>
        </Form.Group>
      </Card.Body>
    </Card>
  );
}

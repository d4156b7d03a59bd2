// The class join code; a click copies it and toasts 'Copied! Join code copied to clipboard'.
import Badge from 'react-bootstrap/Badge';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';

export function JoinCodeBadge({ code }: { code: string }) {
  const toast = useToast();
  const { t } = useTranslation('teacher');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast({ title: t('common:copied'), description: t('classes.joinCode.copied') });
    } catch {
      toast({
        title: t('common:toast.error'),
        description: t('classes.joinCode.copyFailed', { code }),
        variant: 'destructive',
      });
    }
  };
  return (
    <Badge
      as="button"
      type="button"
      bg="dark"
      className="border-0 fs-6 font-monospace px-3 py-2"
      title={t('classes.joinCode.copyTitle')}
      aria-label={t('classes.joinCode.label', { code })}
      onClick={() => void copy()}
    >
      {code}
    </Badge>
  );
}

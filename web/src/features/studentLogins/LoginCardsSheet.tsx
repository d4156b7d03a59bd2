// The class's printed login cards: one per student (name, class code, a QR of the first-party
// address with the card's secret). The secret is shown only now (the server keeps its hash), so the
// sheet is printed from here; printing again makes new cards and the earlier ones stop working.
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { LoginCards } from './studentLoginsApi';
import { useTranslation } from '../../i18n/react';
import { formatDate } from '../../i18n/format';

/** The QR of each card as SVG markup, made in the browser (qrcode, loaded with the sheet only). */
function useQrCodes(urls: string[]): Record<string, string> | undefined {
  const [codes, setCodes] = useState<Record<string, string>>();
  const key = urls.join('\n');
  useEffect(() => {
    let live = true;
    if (!key) return;
    void import('qrcode').then(async (qr) => {
      const made = await Promise.all(
        key
          .split('\n')
          .map(async (url) => [url, await qr.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })]),
      );
      if (live) setCodes(Object.fromEntries(made));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return codes;
}

export function LoginCardsSheet({
  cards,
  className,
  onClose,
}: {
  cards: LoginCards;
  className: string;
  onClose: () => void;
}) {
  const codes = useQrCodes(cards.cards.map((c) => c.url));
  const { t } = useTranslation('teacher');
  const until = cards.cards[0] ? formatDate(cards.cards[0].expiresAt) : undefined;
  return (
    <section aria-label={t('logins.sheet.label')} className="login-cards-sheet">
      <Alert variant="warning" className="d-print-none">
        {t('logins.sheet.printNow')}
        {until && ` ${t('logins.sheet.until', { date: until })}`}
      </Alert>
      <div className="d-flex gap-2 mb-3 d-print-none">
        <Button onClick={() => window.print()} disabled={!codes}>
          {t('logins.sheet.print')}
        </Button>
        <Button variant="outline-secondary" onClick={onClose}>
          {t('logins.sheet.close')}
        </Button>
      </div>
      <ul className="list-unstyled d-flex flex-wrap gap-3">
        {cards.cards.map((card) => (
          <li
            key={card.studentId}
            className="border rounded p-3 text-center"
            style={{ width: 220, breakInside: 'avoid' }}
            aria-label={t('logins.sheet.cardLabel', { name: `${card.firstName} ${card.lastName}` })}
          >
            <div className="fw-bold fs-5">
              {card.firstName} {card.lastName}
            </div>
            <div className="small text-body-secondary">{className}</div>
            {codes?.[card.url] ? (
              <div
                role="img"
                aria-label={t('logins.sheet.qrLabel', { name: card.firstName })}
                style={{ width: 160, height: 160, margin: '0.5rem auto' }}
                // The markup is qrcode's own SVG of our URL.
                dangerouslySetInnerHTML={{ __html: codes[card.url]! }}
              />
            ) : (
              <div style={{ height: 160 }} aria-busy="true" />
            )}
            <div className="small">
              {t('logins.sheet.classCode')} <strong>{cards.classCode}</strong>
            </div>
            <div className="small">
              {t('logins.sheet.username')} <strong>{card.username}</strong>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

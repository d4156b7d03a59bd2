// The class's printed login cards: one per student (name, class code, a QR of the first-party
// address with the card's secret). The secret is shown only now (the server keeps its hash), so the
// sheet is printed from here; printing again makes new cards and the earlier ones stop working.
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { LoginCards } from './studentLoginsApi';

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
  const until = cards.cards[0] ? new Date(cards.cards[0].expiresAt).toLocaleDateString() : undefined;
  return (
    <section aria-label="Login cards" className="login-cards-sheet">
      <Alert variant="warning" className="d-print-none">
        Print these cards now: they are shown only once. Printing again makes new cards, and these stop working.
        {until && ` They work until ${until}.`}
      </Alert>
      <div className="d-flex gap-2 mb-3 d-print-none">
        <Button onClick={() => window.print()} disabled={!codes}>
          Print
        </Button>
        <Button variant="outline-secondary" onClick={onClose}>
          Close
        </Button>
      </div>
      <ul className="list-unstyled d-flex flex-wrap gap-3">
        {cards.cards.map((card) => (
          <li
            key={card.studentId}
            className="border rounded p-3 text-center"
            style={{ width: 220, breakInside: 'avoid' }}
            aria-label={`Login card of ${card.firstName} ${card.lastName}`}
          >
            <div className="fw-bold fs-5">
              {card.firstName} {card.lastName}
            </div>
            <div className="small text-body-secondary">{className}</div>
            {codes?.[card.url] ? (
              <div
                role="img"
                aria-label={`QR code to sign in as ${card.firstName}`}
                style={{ width: 160, height: 160, margin: '0.5rem auto' }}
                // The markup is qrcode's own SVG of our URL.
                dangerouslySetInnerHTML={{ __html: codes[card.url]! }}
              />
            ) : (
              <div style={{ height: 160 }} aria-busy="true" />
            )}
            <div className="small">
              Class code <strong>{cards.classCode}</strong>
            </div>
            <div className="small">
              Username <strong>{card.username}</strong>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

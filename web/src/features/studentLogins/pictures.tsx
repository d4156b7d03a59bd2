// The sixteen pictures of a picture password (the server's list, services/identity/src/domain/
// student-logins.ts): simple drawings, each with its word shown under it and as its accessible
// name, so a screen reader says "cat", and a child who reads can check.
import type { ReactElement } from 'react';
import type { Picture } from './studentLoginsApi';
import { useTranslation } from '../../i18n/react';

const S = { strokeWidth: 2, stroke: '#1f2937' } as const;

const DRAWINGS: Record<Picture, ReactElement> = {
  apple: (
    <>
      <circle cx="20" cy="23" r="12" fill="#dc2626" {...S} />
      <path d="M20 11 q2 -6 7 -6" fill="none" {...S} />
    </>
  ),
  ball: (
    <>
      <circle cx="20" cy="20" r="14" fill="#f59e0b" {...S} />
      <path d="M6 20 h28 M20 6 v28" fill="none" {...S} />
    </>
  ),
  bird: (
    <>
      <ellipse cx="18" cy="22" rx="12" ry="8" fill="#38bdf8" {...S} />
      <circle cx="28" cy="15" r="5" fill="#38bdf8" {...S} />
      <path d="M33 15 l5 2 l-5 1" fill="#f59e0b" {...S} />
    </>
  ),
  boat: (
    <>
      <path d="M5 26 h30 l-5 8 h-20 z" fill="#92400e" {...S} />
      <path d="M20 4 v22 M20 6 l10 16 h-10" fill="#f8fafc" {...S} />
    </>
  ),
  book: (
    <>
      <rect x="7" y="7" width="26" height="27" rx="2" fill="#2563eb" {...S} />
      <path d="M12 7 v27" fill="none" {...S} />
    </>
  ),
  car: (
    <>
      <path d="M4 26 v-7 l6 -7 h16 l6 7 h4 v7 z" fill="#16a34a" {...S} />
      <circle cx="12" cy="28" r="4" fill="#1f2937" />
      <circle cx="29" cy="28" r="4" fill="#1f2937" />
    </>
  ),
  cat: (
    <>
      <path d="M8 14 l3 -9 l6 6 h6 l6 -6 l3 9 v10 a12 10 0 0 1 -24 0 z" fill="#fb923c" {...S} />
      <circle cx="15" cy="21" r="1.8" fill="#1f2937" />
      <circle cx="25" cy="21" r="1.8" fill="#1f2937" />
    </>
  ),
  dog: (
    <>
      <circle cx="20" cy="21" r="11" fill="#a16207" {...S} />
      <ellipse cx="8" cy="18" rx="4" ry="8" fill="#713f12" {...S} />
      <ellipse cx="32" cy="18" rx="4" ry="8" fill="#713f12" {...S} />
      <circle cx="20" cy="25" r="2.5" fill="#1f2937" />
    </>
  ),
  fish: (
    <>
      <ellipse cx="17" cy="20" rx="12" ry="8" fill="#0ea5e9" {...S} />
      <path d="M29 20 l8 -7 v14 z" fill="#0ea5e9" {...S} />
      <circle cx="11" cy="18" r="1.8" fill="#1f2937" />
    </>
  ),
  flower: (
    <>
      <path d="M20 22 v15" fill="none" {...S} stroke="#15803d" />
      {[0, 72, 144, 216, 288].map((a) => (
        <circle
          key={a}
          cx={20 + 7 * Math.cos((a * Math.PI) / 180)}
          cy={14 + 7 * Math.sin((a * Math.PI) / 180)}
          r="5"
          fill="#ec4899"
          {...S}
        />
      ))}
      <circle cx="20" cy="14" r="4" fill="#facc15" {...S} />
    </>
  ),
  hat: (
    <>
      <path d="M12 26 v-16 h16 v16" fill="#7c3aed" {...S} />
      <path d="M4 27 h32" fill="none" {...S} strokeWidth={4} />
    </>
  ),
  house: (
    <>
      <path d="M6 18 l14 -12 l14 12" fill="#dc2626" {...S} />
      <rect x="9" y="18" width="22" height="16" fill="#fde68a" {...S} />
      <rect x="17" y="24" width="6" height="10" fill="#92400e" {...S} />
    </>
  ),
  moon: <path d="M26 5 a15 15 0 1 0 8 26 a12 12 0 1 1 -8 -26 z" fill="#fde047" {...S} />,
  star: (
    <path
      d="M20 4 l4.7 10 l10.8 1.2 l-8 7.4 l2.2 10.7 l-9.7 -5.4 l-9.7 5.4 l2.2 -10.7 l-8 -7.4 l10.8 -1.2 z"
      fill="#facc15"
      {...S}
    />
  ),
  sun: (
    <>
      <circle cx="20" cy="20" r="8" fill="#facc15" {...S} />
      <path d="M20 3 v6 M20 31 v6 M3 20 h6 M31 20 h6 M8 8 l4 4 M28 28 l4 4 M8 32 l4 -4 M28 12 l4 -4" {...S} />
    </>
  ),
  tree: (
    <>
      <rect x="17" y="24" width="6" height="12" fill="#92400e" {...S} />
      <circle cx="20" cy="16" r="12" fill="#22c55e" {...S} />
    </>
  ),
};

export const PICTURES = Object.keys(DRAWINGS) as Picture[];

/** The picture drawn (decorative: the word next to it names it). */
export function PictureDrawing({ picture, size = 48 }: { picture: Picture; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      {DRAWINGS[picture]}
    </svg>
  );
}

/** The pictures as a group of toggle buttons; each is named by its word. */
export function PicturePicker({
  value,
  onChange,
  label,
  idPrefix,
}: {
  value: Picture | undefined;
  onChange: (picture: Picture) => void;
  label: string;
  idPrefix: string;
}) {
  const { t } = useTranslation('common');
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6">{label}</legend>
      <div className="d-flex flex-wrap gap-2" id={`${idPrefix}-pictures`}>
        {PICTURES.map((p) => (
          <button
            key={p}
            type="button"
            className={`btn ${value === p ? 'btn-primary' : 'btn-outline-secondary'} d-flex flex-column align-items-center p-1`}
            style={{ width: 76, minHeight: 76 }}
            aria-pressed={value === p}
            onClick={() => onChange(p)}
          >
            <PictureDrawing picture={p} />
            <span className="small">{t(`picture.${p}`)}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}

const WORD_LIST = [
  'red',
  'blue',
  'green',
  'sunny',
  'happy',
  'tall',
  'little',
  'fast',
  'quiet',
  'brave',
  'apple',
  'river',
  'kite',
  'tiger',
  'cloud',
  'rocket',
  'garden',
  'pencil',
  'robot',
  'lemon',
];

/** Two short words for a word password (the teacher may change them). */
export function suggestWords(random: () => number = Math.random): string {
  const pick = (from: number, to: number) => WORD_LIST[from + Math.floor(random() * (to - from))]!;
  return `${pick(0, 10)} ${pick(10, 20)}`;
}

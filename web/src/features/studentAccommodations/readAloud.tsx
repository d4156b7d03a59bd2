// Read aloud (#32 item 1): the question and its choices spoken on request by the browser's speech
// synthesis, in the voice and at the speed the student chose (kept in this browser), the word
// being read highlighted (the utterances' boundary events). Where the browser has no speech
// synthesis the control says so.
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

/** One piece read: its text as shown, and what is said before it (e.g. "Choice 2."), unhighlighted. */
export interface Segment {
  key: string;
  text: string;
  prefix?: string;
}
/** The word being read: in the segment `key`, characters [start, end) of its shown text. */
export interface Highlight {
  key: string;
  start: number;
  end: number;
}

export const SETTINGS_KEY = 'checkpoint.readAloud';
export const RATES = [0.5, 0.75, 1, 1.25, 1.5] as const;

interface Settings {
  /** The voice's voiceURI; empty: the browser's default. */
  voice: string;
  rate: number;
}

function loadSettings(): Settings {
  try {
    const raw = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<Settings>;
    return {
      voice: typeof raw.voice === 'string' ? raw.voice : '',
      rate: RATES.includes(raw.rate as (typeof RATES)[number]) ? (raw.rate as number) : 1,
    };
  } catch {
    return { voice: '', rate: 1 };
  }
}

export const speechAvailable = () =>
  typeof window !== 'undefined' &&
  'speechSynthesis' in window &&
  typeof (window as { SpeechSynthesisUtterance?: unknown }).SpeechSynthesisUtterance === 'function';

export type ReadAloud = ReturnType<typeof useReadAloud>;

/** The reader of one question (`resetKey`): moving to another stops it. */
export function useReadAloud(resetKey: string) {
  const [settings, setSettings] = useState(loadSettings);
  const [speaking, setSpeaking] = useState(false);
  const [highlight, setHighlight] = useState<Highlight | null>(null);
  // Some browsers have the voices at once, others announce them (voiceschanged).
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>(() =>
    speechAvailable() ? window.speechSynthesis.getVoices() : [],
  );
  const run = useRef(0);

  useEffect(() => {
    if (!speechAvailable()) return;
    const synth = window.speechSynthesis;
    const load = () => setVoices(synth.getVoices());
    load();
    synth.addEventListener?.('voiceschanged', load);
    return () => synth.removeEventListener?.('voiceschanged', load);
  }, []);

  const stop = useCallback(() => {
    run.current++;
    if (speechAvailable()) window.speechSynthesis.cancel();
    setSpeaking(false);
    setHighlight(null);
  }, []);
  useEffect(() => stop, [resetKey, stop]);

  const choose = useCallback((change: Partial<Settings>) => {
    setSettings((s) => {
      const next = { ...s, ...change };
      try {
        localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
      } catch {
        // Private mode: the choice lasts for this page only.
      }
      return next;
    });
  }, []);

  const speak = useCallback(
    (segments: readonly Segment[]) => {
      if (!speechAvailable() || segments.length === 0) return;
      const synth = window.speechSynthesis;
      synth.cancel();
      const id = ++run.current;
      const voice = synth.getVoices().find((v) => v.voiceURI === settings.voice);
      const finish = () => {
        if (run.current !== id) return;
        setSpeaking(false);
        setHighlight(null);
      };
      segments.forEach((seg, i) => {
        const offset = seg.prefix ? seg.prefix.length + 1 : 0;
        const u = new SpeechSynthesisUtterance(seg.prefix ? `${seg.prefix} ${seg.text}` : seg.text);
        u.rate = settings.rate;
        if (voice) {
          u.voice = voice;
          u.lang = voice.lang;
        }
        u.onboundary = (e) => {
          if (run.current !== id || (e.name && e.name !== 'word')) return;
          const start = e.charIndex - offset;
          if (start < 0 || start >= seg.text.length) return setHighlight(null);
          const length = e.charLength || (/^\S+/.exec(seg.text.slice(start))?.[0].length ?? 0);
          setHighlight({ key: seg.key, start, end: start + length });
        };
        u.onend = () => {
          if (i === segments.length - 1) finish();
        };
        u.onerror = finish;
        synth.speak(u);
      });
      setSpeaking(true);
    },
    [settings],
  );

  return { speak, stop, speaking, highlight, settings, choose, voices };
}

/** Text as shown, the word being read (if in it) marked. */
export function Spoken({ text, segment, highlight }: { text: string; segment: string; highlight: Highlight | null }) {
  if (!highlight || highlight.key !== segment || highlight.end <= highlight.start) return <>{text}</>;
  return (
    <>
      {text.slice(0, highlight.start)}
      <mark className="acc-reading" data-testid="reading-word">
        {text.slice(highlight.start, highlight.end)}
      </mark>
      {text.slice(highlight.end)}
    </>
  );
}

/** The "Read aloud" button (Stop while reading), the voice and the speed. */
export function ReadAloudControls({
  reader,
  what,
  segments,
}: {
  reader: ReadAloud;
  /** What the button reads, for its accessible name: "Read aloud question 2". */
  what: string;
  segments: () => Segment[];
}) {
  const { t } = useTranslation('take');
  if (!speechAvailable()) return <p className="small text-body-secondary mb-3">{t('readAloud.unavailable')}</p>;
  const { speaking, settings, choose, voices } = reader;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3 acc-read-aloud">
      <button
        type="button"
        className="btn btn-outline-primary"
        aria-label={speaking ? t('readAloud.stop') : t('readAloud.readWhat', { what })}
        onClick={() => (speaking ? reader.stop() : reader.speak(segments()))}
      >
        {speaking ? t('readAloud.stop') : t('readAloud.read')}
      </button>
      <label className="d-flex align-items-center gap-1 small">
        {t('readAloud.voice')}
        <select
          className="form-select form-select-sm w-auto"
          value={settings.voice}
          onChange={(e) => choose({ voice: e.currentTarget.value })}
        >
          <option value="">{t('readAloud.browserDefault')}</option>
          {voices.map((v) => (
            <option key={v.voiceURI} value={v.voiceURI}>
              {v.name} ({v.lang})
            </option>
          ))}
        </select>
      </label>
      <label className="d-flex align-items-center gap-1 small">
        {t('readAloud.speed')}
        <select
          className="form-select form-select-sm w-auto"
          value={String(settings.rate)}
          onChange={(e) => choose({ rate: Number(e.currentTarget.value) })}
        >
          {RATES.map((r) => (
            <option key={r} value={String(r)}>
              {r === 1 ? t('readAloud.normal') : `${formatNumber(r)}×`}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

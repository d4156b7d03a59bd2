// A stand-in for the browser's speech synthesis (jsdom has none): records what is spoken, and lets
// a test fire an utterance's boundary and end events.
import { vi } from 'vitest';

export class FakeUtterance {
  rate = 1;
  voice: { voiceURI: string; lang: string } | null = null;
  lang = '';
  onboundary: ((e: { name: string; charIndex: number; charLength: number }) => void) | null = null;
  onend: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public text: string) {}
}

export const VOICES = [
  { voiceURI: 'v-en', name: 'Sam', lang: 'en-US', default: true, localService: true },
  { voiceURI: 'v-es', name: 'Ana', lang: 'es-ES', default: false, localService: true },
];

export function stubSpeech() {
  const spoken: FakeUtterance[] = [];
  const synth = {
    speak: vi.fn((u: FakeUtterance) => {
      spoken.push(u);
    }),
    cancel: vi.fn(),
    getVoices: () => VOICES,
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  };
  vi.stubGlobal('speechSynthesis', synth);
  vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
  return { spoken, synth };
}

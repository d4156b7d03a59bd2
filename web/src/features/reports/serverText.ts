// The report as the server builds it is English (the same table the CSV and PDF exports hold, a
// stable contract): its title, column names and level words are shown in the interface's language
// when they are among the server's known texts (reports.server.<the English words, each run of other
// characters an underscore>), and as they came otherwise (a class's or an assessment's name).
import { useCallback } from 'react';
import { useTranslation } from '../../i18n/react';

export function useServerText(): (english: string) => string {
  const { t, i18n } = useTranslation('results');
  return useCallback(
    (english: string) => {
      const key = `reports.server.${english.replace(/[^A-Za-z0-9]+/g, '_')}`;
      return i18n.exists(key, { ns: 'results' }) ? t(key) : english;
    },
    [t, i18n],
  );
}

/** The server's title ('Performance Report, last 30 days'): each of its parts in the interface's language. */
export function useReportTitle(): (title: string) => string {
  const text = useServerText();
  return useCallback((title: string) => title.split(', ').map(text).join(', '), [text]);
}

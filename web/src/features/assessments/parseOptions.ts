// Question options arrive as a list, a JSON-encoded list or delimited text; all render.

function clean(values: unknown[]): string[] {
  return values
    .map((v) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : ''))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** Options as a list of non-empty strings, whatever shape they were stored in. */
export function parseOptions(raw: unknown): string[] {
  if (raw === null || raw === undefined) return [];
  if (Array.isArray(raw)) return clean(raw);
  if (typeof raw !== 'string') return [];
  const text = raw.trim();
  if (!text) return [];
  if (text.startsWith('[') || text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return clean(parsed);
      if (typeof parsed === 'string') return parseOptions(parsed);
    } catch {
      // Not JSON after all: fall through to delimited text.
    }
  }
  for (const delimiter of ['\n', '|', ';', ',']) {
    if (text.includes(delimiter)) return clean(text.split(delimiter));
  }
  return [text];
}

/** The options a question of this type offers: True and False for true/false, none for short answer. */
export function optionsFor(questionType: string, raw: unknown): string[] {
  if (questionType === 'true_false') {
    const parsed = parseOptions(raw);
    return parsed.length === 2 ? parsed : ['True', 'False'];
  }
  if (questionType === 'short_answer') return [];
  return parseOptions(raw);
}

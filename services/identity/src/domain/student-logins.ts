// The rules of student accounts without email (docs/adr/015-students-without-email.md): the fixed
// pictures, the word passwords, how a secret is put in the form that is hashed, and the name a
// class list shows.

/** The pictures a picture password is one of (the web draws each with a text label). */
export const PICTURES = [
  'apple',
  'ball',
  'bird',
  'boat',
  'book',
  'car',
  'cat',
  'dog',
  'fish',
  'flower',
  'hat',
  'house',
  'moon',
  'star',
  'sun',
  'tree',
] as const;
export type Picture = (typeof PICTURES)[number];

export type StudentSecret = { kind: 'picture'; picture: Picture } | { kind: 'words'; words: string };

/** Two short words, lower-case, separated by one space. */
export const WORDS = /^[a-z]{2,12} [a-z]{2,12}$/;

export function normalizeWords(words: string): string {
  return words.trim().toLowerCase().split(/\s+/).join(' ');
}

/** What is hashed (argon2id): the kind is part of it, so a picture never matches a word. */
export function secretText(secret: StudentSecret): string {
  return secret.kind === 'picture' ? `picture:${secret.picture}` : `words:${normalizeWords(secret.words)}`;
}

/** "Maya R." — a class list shows no more of a young student's name. */
export function shownName(firstName: string, lastName: string): string {
  const initial = lastName.trim().charAt(0).toUpperCase();
  return initial ? `${firstName.trim()} ${initial}.` : firstName.trim();
}

/** Usernames are compared and stored lower-case. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** Class codes are typed in any case and with spaces. */
export function normalizeClassCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

// The user as the rest of the product sees it, and the small rules around emails and preferences.
import { DEFAULT_LOCALE, isLocale, type Locale } from './locales.ts';

export const USER_ROLES = ['student', 'teacher', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const TENANT_KINDS = ['district', 'school', 'individual'] as const;
export type TenantKind = (typeof TENANT_KINDS)[number];

export interface Preferences {
  emailNotifications: boolean;
  assessmentReminders: boolean;
  studentSubmissions: boolean;
  darkMode: boolean;
}

/** Settings: of the notification switches, only student submissions is on by default. */
export const DEFAULT_PREFERENCES: Preferences = {
  emailNotifications: false,
  assessmentReminders: false,
  studentSubmissions: true,
  darkMode: false,
};

/** A user row joined with its tenant's kind; never carries hashes or tokens. */
export interface UserRecord {
  id: string;
  tenantId: string;
  tenantKind: TenantKind;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  profileImageUrl: string | null;
  preferences: unknown;
  createdAt: Date;
  disabledAt: Date | null;
  /** When the address was proven (D2); null: never, or changed since. */
  emailVerifiedAt: Date | null;
  emailVerified: boolean;
  /** The interface language the user chose (locales.ts); null or absent: never chosen. */
  locale?: string | null;
}

/** The `GET /api/auth/user` shape. */
export interface PublicUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: UserRole;
  profileImageUrl: string | null;
  createdAt: string;
  tenantId: string;
  accountType: TenantKind;
  preferences: Preferences;
  emailVerified: boolean;
  locale: Locale;
}

/** The user's chosen language, else `fallback` (the browser's, from Accept-Language), else en. */
export function userLocale(user: Pick<UserRecord, 'locale'>, fallback: Locale = DEFAULT_LOCALE): Locale {
  return isLocale(user.locale) ? user.locale : fallback;
}

export function toPublicUser(user: UserRecord, fallbackLocale: Locale = DEFAULT_LOCALE): PublicUser {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    role: user.role,
    profileImageUrl: user.profileImageUrl,
    createdAt: user.createdAt.toISOString(),
    tenantId: user.tenantId,
    accountType: user.tenantKind,
    preferences: readPreferences(user.preferences),
    emailVerified: user.emailVerified,
    locale: userLocale(user, fallbackLocale),
  };
}

/** Stored preferences merged over the defaults; unknown or mistyped keys are ignored. */
export function readPreferences(stored: unknown): Preferences {
  const result = { ...DEFAULT_PREFERENCES };
  if (stored && typeof stored === 'object') {
    for (const key of Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[]) {
      const value = (stored as Record<string, unknown>)[key];
      if (typeof value === 'boolean') result[key] = value;
    }
  }
  return result;
}

/** Emails are compared and stored lower-case and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
}

// The Free Trial plan (up to 3 classes, 50 students total). District and school tenants
// are on the School / Enterprise plans; an individual's own space is on the Free Trial, and so is a
// teacher whose tenant is not known here yet (identity's event has not arrived).
export const FREE_TRIAL_LIMITS = { classes: 3, students: 50 } as const;

export function onFreeTrial(tenantKind: string | null | undefined): boolean {
  return tenantKind !== 'district' && tenantKind !== 'school';
}

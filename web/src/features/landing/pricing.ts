// Landing-page plans; they differ from the in-app Subscription plans (features/subscription). The
// words are keys of the landing namespace (plans.<id>.*, features.*); prices stay as they are.
export interface LandingPlan {
  id: 'individual' | 'annual' | 'enterprise';
  /** A price in dollars, or none: the plan's `plans.<id>.price` text ("Custom"). */
  price?: string;
  /** Whether the plan has a `plans.<id>.note` line under its price. */
  note?: boolean;
  /** Whether it has a `plans.<id>.period` ("/month"). */
  period?: boolean;
  popular?: boolean;
  /** Keys of `features.*`. */
  features: string[];
  cta: 'startTrial' | 'contactSales';
}

export const LANDING_PLANS: LandingPlan[] = [
  {
    id: 'individual',
    price: '$19',
    period: true,
    features: ['students150', 'unlimitedAssessments', 'aiGeneration', 'progress'],
    cta: 'startTrial',
  },
  {
    id: 'annual',
    price: '$15',
    period: true,
    note: true,
    popular: true,
    features: ['students150', 'unlimitedAssessments', 'aiGeneration', 'prioritySupport'],
    cta: 'startTrial',
  },
  {
    id: 'enterprise',
    features: ['unlimitedStudents', 'districtAnalytics', 'sso', 'dedicatedSupport'],
    cta: 'contactSales',
  },
];

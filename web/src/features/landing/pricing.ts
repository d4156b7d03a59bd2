// Landing-page plans; they differ from the in-app Subscription plans (features/subscription).
export interface LandingPlan {
  name: string;
  price: string;
  period: string;
  note?: string;
  popular?: boolean;
  features: string[];
  cta: 'Start Free Trial' | 'Contact Sales';
}

export const LANDING_PLANS: LandingPlan[] = [
  {
    name: 'Individual',
    price: '$19',
    period: '/month',
    features: ['Up to 150 students', 'Unlimited assessments', 'AI question generation', 'Progress tracking'],
    cta: 'Start Free Trial',
  },
  {
    name: 'Individual Annual',
    price: '$15',
    period: '/month',
    note: 'Billed annually ($180) — save 20%',
    popular: true,
    features: ['Up to 150 students', 'Unlimited assessments', 'AI question generation', 'Priority support'],
    cta: 'Start Free Trial',
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    period: '',
    features: ['Unlimited students', 'District-wide analytics', 'SSO integration', 'Dedicated support'],
    cta: 'Contact Sales',
  },
];

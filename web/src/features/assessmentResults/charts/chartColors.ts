// The charts' colours, as CSS variables of the theme (web/src/theme.css): a lighter shade of each in
// dark mode, so the bars stand out on the dark cards as they do on the light ones.
export const CHART_COLORS = {
  above: 'var(--cp-chart-above)',
  at: 'var(--cp-chart-at)',
  below: 'var(--cp-chart-below)',
  primary: 'var(--cp-chart-primary)',
  item: 'var(--cp-chart-item)',
} as const;

// chart.js is tree-shaken: only what the bar charts draw is registered (no legend, no title plugin).
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

Chart.register(CategoryScale, LinearScale, BarElement, Tooltip);

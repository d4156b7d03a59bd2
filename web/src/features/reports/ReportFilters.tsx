// The report filters: All Classes or chosen classes, time period and report type.
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { ClassItem } from '../classes';
import { REPORT_TYPES, TIMEFRAMES, type ReportQuery, type ReportType, type Timeframe } from '../results';
import { useTranslation } from '../../i18n/react';

export interface ReportFilterState {
  allClasses: boolean;
  classIds: string[];
  timeframe: Timeframe;
  type: ReportType;
}

/** All Classes asks the server for every class of the teacher (an empty classIds). */
export function toReportQuery(f: ReportFilterState): ReportQuery {
  return { classIds: f.allClasses ? [] : f.classIds, timeframe: f.timeframe, type: f.type };
}

interface Props {
  classes: ClassItem[] | undefined;
  classesLoading: boolean;
  classesFailed: boolean;
  value: ReportFilterState;
  onChange: (next: ReportFilterState) => void;
  onGenerate: () => void;
  generating: boolean;
}

export function ReportFilters({
  classes,
  classesLoading,
  classesFailed,
  value,
  onChange,
  onGenerate,
  generating,
}: Props) {
  const { t } = useTranslation('results');
  const list = classes ?? [];
  const nothingChosen = !value.allClasses && value.classIds.length === 0;

  const toggleClass = (id: string, checked: boolean) => {
    const chosen = new Set(value.classIds);
    if (checked) chosen.add(id);
    else chosen.delete(id);
    // Keep the class list's order so the same choice always makes the same request.
    onChange({ ...value, allClasses: false, classIds: list.map((c) => c.id).filter((cid) => chosen.has(cid)) });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!nothingChosen) onGenerate();
  };

  return (
    <Form onSubmit={submit} aria-label={t('reports.filters.label')}>
      <fieldset className="mb-3">
        <legend className="fs-6 fw-semibold">{t('reports.filters.classes')}</legend>
        <Form.Check
          id="report-class-all"
          label={t('reports.filters.allClasses')}
          checked={value.allClasses}
          onChange={(e) => onChange({ ...value, allClasses: e.target.checked, classIds: [] })}
        />
        {classesLoading && <div className="small text-body-secondary">{t('reports.filters.loadingClasses')}</div>}
        {classesFailed && <div className="small text-danger">{t('reports.filters.classesFailed')}</div>}
        {list.map((c) => (
          <Form.Check
            key={c.id}
            id={`report-class-${c.id}`}
            label={c.period ? t('classWithPeriod', { name: c.name, period: c.period }) : c.name}
            checked={!value.allClasses && value.classIds.includes(c.id)}
            onChange={(e) => toggleClass(c.id, e.target.checked)}
          />
        ))}
        {nothingChosen && (
          <Form.Text className="text-danger" role="alert">
            {t('reports.filters.chooseClasses')}
          </Form.Text>
        )}
      </fieldset>
      <Form.Group className="mb-3" controlId="report-timeframe">
        <Form.Label className="fw-semibold">{t('reports.filters.timeframe')}</Form.Label>
        <Form.Select
          value={value.timeframe}
          onChange={(e) => onChange({ ...value, timeframe: e.target.value as Timeframe })}
        >
          {TIMEFRAMES.map((timeframe) => (
            <option key={timeframe} value={timeframe}>
              {t(`reports.timeframe.${timeframe}`)}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className="mb-3" controlId="report-type">
        <Form.Label className="fw-semibold">{t('reports.filters.type')}</Form.Label>
        <Form.Select value={value.type} onChange={(e) => onChange({ ...value, type: e.target.value as ReportType })}>
          {REPORT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`reports.type.${type}`)}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Button type="submit" className="w-100" disabled={nothingChosen || generating}>
        {generating ? t('reports.generating') : t('reports.generate')}
      </Button>
    </Form>
  );
}

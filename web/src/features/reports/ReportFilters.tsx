// The report filters: All Classes or chosen classes, time period and report type.
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { type ClassItem, classLabel } from '../classes';
import { REPORT_TYPES, TIMEFRAMES, type ReportQuery, type ReportType, type Timeframe } from '../results';
import { REPORT_TYPE_LABELS, TIMEFRAME_LABELS } from './reportLabels';

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
    <Form onSubmit={submit} aria-label="Report filters">
      <fieldset className="mb-3">
        <legend className="fs-6 fw-semibold">Classes</legend>
        <Form.Check
          id="report-class-all"
          label="All Classes"
          checked={value.allClasses}
          onChange={(e) => onChange({ ...value, allClasses: e.target.checked, classIds: [] })}
        />
        {classesLoading && <div className="small text-body-secondary">Loading classes...</div>}
        {classesFailed && <div className="small text-danger">Failed to load classes.</div>}
        {list.map((c) => (
          <Form.Check
            key={c.id}
            id={`report-class-${c.id}`}
            label={classLabel(c)}
            checked={!value.allClasses && value.classIds.includes(c.id)}
            onChange={(e) => toggleClass(c.id, e.target.checked)}
          />
        ))}
        {nothingChosen && (
          <Form.Text className="text-danger" role="alert">
            Choose All Classes or at least one class.
          </Form.Text>
        )}
      </fieldset>
      <Form.Group className="mb-3" controlId="report-timeframe">
        <Form.Label className="fw-semibold">Time Period</Form.Label>
        <Form.Select
          value={value.timeframe}
          onChange={(e) => onChange({ ...value, timeframe: e.target.value as Timeframe })}
        >
          {TIMEFRAMES.map((t) => (
            <option key={t} value={t}>
              {TIMEFRAME_LABELS[t]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className="mb-3" controlId="report-type">
        <Form.Label className="fw-semibold">Report Type</Form.Label>
        <Form.Select value={value.type} onChange={(e) => onChange({ ...value, type: e.target.value as ReportType })}>
          {REPORT_TYPES.map((t) => (
            <option key={t} value={t}>
              {REPORT_TYPE_LABELS[t]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Button type="submit" className="w-100" disabled={nothingChosen || generating}>
        {generating ? 'Generating Report...' : 'Generate Report'}
      </Button>
    </Form>
  );
}

// A labelled choice of one class, each shown as 'name - Period N' (the dashboard's class, the
// By Class tab of All Students).
import Form from 'react-bootstrap/Form';
import { classLabel } from './classStats';
import { useTranslation } from '../../i18n/react';

interface ClassPickerProps {
  id: string;
  classes: { id: string; name: string; period: string | null }[];
  value: string;
  onChange: (id: string) => void;
  className?: string;
}

export function ClassPicker({ id, classes, value, onChange, className = 'mb-4' }: ClassPickerProps) {
  const { t } = useTranslation('teacher');
  return (
    <Form.Group controlId={id} className={`d-flex flex-wrap align-items-center gap-2 ${className}`}>
      <Form.Label className="mb-0 fw-semibold">{t('classPicker.label')}</Form.Label>
      <Form.Select value={value} onChange={(e) => onChange(e.target.value)} className="w-auto">
        {classes.map((c) => (
          <option key={c.id} value={c.id}>
            {classLabel(c, t)}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}

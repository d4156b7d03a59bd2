// Editing one bank item (PUT /api/bank/items/{id}), for those the API lets change it (its author; a
// shared one also the tenant's admins): the question as the house's question form has it, and who
// can find it, its subject, grade, topic and standard label. The API's validation errors show on
// the fields they name; any other refusal (no longer allowed, gone) above the form. Assessments
// that use the item keep their copy.
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';
import { useAuth } from '../../session/useAuth';
import { QuestionEditor, questionToSend } from '../assessments';
import { VISIBILITIES, useUpdateBankItemMutation, type BankItem, type Visibility } from './bankApi';

const LABELS = ['subject', 'grade', 'topic', 'standard'] as const;
type Label = (typeof LABELS)[number];
/** The fields of the item's own part of the form (the question's are the question form's). */
const ITEM_FIELDS = new Set<string>(['visibility', ...LABELS]);

/** The API's field errors: those of the question, those of the item, and any the form cannot show on a field. */
function splitErrors(fields: Record<string, string>) {
  const question: Record<string, string> = {};
  const item: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(fields)) {
    if (ITEM_FIELDS.has(key)) item[key] = message;
    else if (/^(questionText|questionType|options|correctAnswer|acceptedAnswers|points)(\.|$)/.test(key))
      question[key] = message;
    else other.push(message);
  }
  return { question, item, other };
}

export function BankItemEditDialog({ item, onClose }: { item: BankItem; onClose: () => void }) {
  const { t } = useTranslation('bank');
  const toast = useToast();
  const individual = useAuth().user?.accountType === 'individual';
  const [update, { isLoading }] = useUpdateBankItemMutation();
  const [visibility, setVisibility] = useState<Visibility>(item.visibility);
  const [labels, setLabels] = useState<Record<Label, string>>({
    subject: item.subject,
    grade: item.grade,
    topic: item.topic,
    standard: item.standard,
  });
  const [questionErrors, setQuestionErrors] = useState<Record<string, string>>();
  const [itemErrors, setItemErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const prefix = `bank-edit-${item.id}`;
  const titleId = `${prefix}-title`;

  const save = async (values: Parameters<typeof questionToSend>[0], standards: string[] | undefined) => {
    setFailure(undefined);
    setItemErrors({});
    const { acceptedAnswers, standards: _none, ...question } = questionToSend(values);
    try {
      await update({
        id: item.id,
        body: {
          ...question,
          ...(acceptedAnswers ? { acceptedAnswers } : {}),
          ...(standards ? { standards } : {}),
          visibility,
          ...labels,
        },
      }).unwrap();
      toast({ title: t('bank.edit.updated'), description: t('bank.keepCopy') });
      onClose();
    } catch (error) {
      const fields = isApiError(error) ? error.fields : undefined;
      if (fields && Object.keys(fields).length > 0) {
        const split = splitErrors(fields);
        setQuestionErrors(split.question);
        setItemErrors(split.item);
        if (split.other.length > 0) setFailure(split.other.join(' '));
      } else {
        setFailure(serverMessageOr(error, t('bank.edit.failed')));
      }
    }
  };

  return (
    <Modal show onHide={onClose} aria-labelledby={titleId} size="lg">
      <Modal.Header closeButton closeLabel={t('close')}>
        <Modal.Title id={titleId}>{t('bank.edit.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {failure && (
          <Alert variant="danger" role="alert">
            {failure}
          </Alert>
        )}
        <QuestionEditor
          idPrefix={prefix}
          question={item}
          submitLabel={t('bank.edit.save')}
          busy={isLoading}
          onSubmit={save}
          onCancel={onClose}
          serverErrors={questionErrors}
        >
          <fieldset
            className="mb-3"
            aria-describedby={itemErrors.visibility ? `${prefix}-visibility-error` : undefined}
          >
            <legend className="fs-6 mb-1">{t('bank.whoCanFind')}</legend>
            {VISIBILITIES.map((v) => (
              <Form.Check
                key={v}
                type="radio"
                id={`${prefix}-visibility-${v}`}
                name={`${prefix}-visibility`}
                label={t(`bank.visibility.${v}`)}
                checked={visibility === v}
                disabled={individual && v !== 'private'}
                isInvalid={Boolean(itemErrors.visibility)}
                onChange={() => setVisibility(v)}
              />
            ))}
            {individual && <Form.Text>{t('bank.individual')}</Form.Text>}
            {itemErrors.visibility && (
              <div className="invalid-feedback d-block" id={`${prefix}-visibility-error`}>
                {itemErrors.visibility}
              </div>
            )}
          </fieldset>
          <div className="row g-2">
            {LABELS.map((name) => {
              const id = `${prefix}-${name}`;
              const error = itemErrors[name];
              return (
                <Form.Group key={name} className="col-12 col-md-6 mb-3" controlId={id}>
                  <Form.Label>{t(`bank.label.${name}`)}</Form.Label>
                  <Form.Control
                    value={labels[name]}
                    placeholder={t(`bank.edit.hint.${name}`)}
                    isInvalid={Boolean(error)}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                    onChange={(e) => setLabels({ ...labels, [name]: e.target.value })}
                  />
                  {error && (
                    <Form.Control.Feedback type="invalid" id={`${id}-error`}>
                      {error}
                    </Form.Control.Feedback>
                  )}
                </Form.Group>
              );
            })}
          </div>
        </QuestionEditor>
      </Modal.Body>
    </Modal>
  );
}

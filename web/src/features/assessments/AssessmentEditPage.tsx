// /assessment-edit/{id} (spec §2, §5): the details form and per-question edit, delete and add.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import {
  useAddQuestionMutation,
  useDeleteQuestionMutation,
  useGetAssessmentQuery,
  useGetQuestionsQuery,
  useUpdateAssessmentMutation,
  useUpdateQuestionMutation,
  type Assessment,
  type Question,
} from './assessmentsApi';
import { AssessmentNotFound } from './AssessmentPreviewPage';
import {
  assessmentDetailsSchema,
  optionsToSend,
  type AssessmentDetailsValues,
  type QuestionEditValues,
} from './assessmentSchemas';
import { QuestionEditor } from './QuestionEditor';
import { QuestionPreview } from './QuestionPreview';

const MAX_QUESTIONS = 20;

function DetailsForm({ assessment }: { assessment: Assessment }) {
  const toast = useToast();
  const [update, { isLoading }] = useUpdateAssessmentMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AssessmentDetailsValues>({
    resolver: zodResolver(assessmentDetailsSchema),
    defaultValues: {
      title: assessment.title,
      description: assessment.description,
      topic: assessment.topic,
      standard: assessment.standard,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await update({ id: assessment.id, body: values }).unwrap();
      toast({ title: 'Assessment Updated', description: 'Your changes have been saved.' });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to update assessment'),
        variant: 'destructive',
      });
    }
  });

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body className="p-4">
        <Card.Title as="h2" className="h5 mb-3">
          Assessment Details
        </Card.Title>
        <Form noValidate onSubmit={onSubmit} aria-label="Assessment details">
          <TextField id="edit-title" label="Title" registration={register('title')} error={errors.title?.message} />
          <Form.Group className="mb-3" controlId="edit-description">
            <Form.Label>Description</Form.Label>
            <Form.Control as="textarea" rows={2} {...register('description')} />
          </Form.Group>
          <Form.Group className="mb-3" controlId="edit-topic">
            <Form.Label>Topic</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              isInvalid={Boolean(errors.topic)}
              aria-describedby={errors.topic ? 'edit-topic-error' : undefined}
              {...register('topic')}
            />
            {errors.topic && (
              <Form.Control.Feedback type="invalid" id="edit-topic-error">
                {errors.topic.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Form.Group className="mb-3" controlId="edit-standard">
            <Form.Label>Standard</Form.Label>
            <Form.Control as="textarea" rows={2} {...register('standard')} />
          </Form.Group>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Save Details'}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}

function QuestionItem({ assessmentId, question, index }: { assessmentId: string; question: Question; index: number }) {
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [update, updateState] = useUpdateQuestionMutation();
  const [remove, removeState] = useDeleteQuestionMutation();

  const save = async (values: QuestionEditValues) => {
    try {
      await update({
        assessmentId,
        questionId: question.id,
        body: {
          questionText: values.questionText,
          questionType: values.questionType,
          options: optionsToSend(values),
          correctAnswer: values.correctAnswer,
          points: question.points,
        },
      }).unwrap();
      setEditing(false);
      toast({ title: 'Question Updated', description: 'The question has been saved.' });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to update question'),
        variant: 'destructive',
      });
    }
  };

  const destroy = async () => {
    try {
      await remove({ assessmentId, questionId: question.id }).unwrap();
      toast({ title: 'Question Deleted', description: 'The question has been removed.' });
    } catch (error) {
      toast({
        title: 'Delete Failed',
        description: serverMessageOr(error, 'Failed to delete question'),
        variant: 'destructive',
      });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Card className="shadow-sm mb-3" as="section" aria-label={`Question ${index + 1}`}>
      {editing ? (
        <Card.Body>
          <h3 className="h6">Edit Question {index + 1}</h3>
          <QuestionEditor
            idPrefix={`question-${question.id}`}
            question={question}
            submitLabel="Save Question"
            busy={updateState.isLoading}
            onSubmit={save}
            onCancel={() => setEditing(false)}
          />
        </Card.Body>
      ) : (
        <>
          <ul className="list-group list-group-flush list-unstyled mb-0">
            <QuestionPreview question={question} index={index} />
          </ul>
          <Card.Footer className="d-flex gap-2 justify-content-end">
            <Button size="sm" variant="outline-primary" onClick={() => setEditing(true)}>
              Edit Question {index + 1}
            </Button>
            <Button size="sm" variant="outline-danger" onClick={() => setConfirming(true)}>
              Delete Question {index + 1}
            </Button>
          </Card.Footer>
        </>
      )}
      <Modal show={confirming} onHide={() => setConfirming(false)} aria-labelledby={`delete-q-${question.id}`}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`delete-q-${question.id}`}>Delete question {index + 1}?</Modal.Title>
        </Modal.Header>
        <Modal.Body>This action cannot be undone.</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void destroy()} disabled={removeState.isLoading}>
            Delete
          </Button>
        </Modal.Footer>
      </Modal>
    </Card>
  );
}

function AddQuestion({ assessmentId, count }: { assessmentId: string; count: number }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [add, { isLoading }] = useAddQuestionMutation();
  if (count >= MAX_QUESTIONS) return <p className="text-body-secondary">An assessment has at most 20 questions.</p>;
  if (!open) {
    return (
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        Add Question
      </Button>
    );
  }
  const save = async (values: QuestionEditValues) => {
    try {
      await add({
        assessmentId,
        body: {
          questionText: values.questionText,
          questionType: values.questionType,
          options: optionsToSend(values),
          correctAnswer: values.correctAnswer,
        },
      }).unwrap();
      setOpen(false);
      toast({ title: 'Question Added', description: 'The question has been added.' });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to add question'),
        variant: 'destructive',
      });
    }
  };
  return (
    <Card className="shadow-sm">
      <Card.Body>
        <h3 className="h6">New Question</h3>
        <QuestionEditor
          idPrefix="new-question"
          submitLabel="Add Question"
          busy={isLoading}
          onSubmit={save}
          onCancel={() => setOpen(false)}
        />
      </Card.Body>
    </Card>
  );
}

export function AssessmentEditPage() {
  const { id = '' } = useParams();
  const assessment = useGetAssessmentQuery(id);
  const questions = useGetQuestionsQuery(id, { skip: !assessment.data });
  if (assessment.isLoading) return <PageSpinner />;
  if (!assessment.data) return <AssessmentNotFound />;
  const list = questions.data ?? [];
  return (
    <>
      <Link to={`/assessment-preview/${id}`} className="d-inline-block mb-3">
        ← Back to Preview
      </Link>
      <h1 className="h2 mb-4">Edit Assessment</h1>
      <DetailsForm key={assessment.data.id} assessment={assessment.data} />
      <h2 className="h4 mb-3">Questions ({list.length})</h2>
      {questions.isLoading ? (
        <PageSpinner />
      ) : (
        list.map((q, i) => <QuestionItem key={q.id} assessmentId={id} question={q} index={i} />)
      )}
      <AddQuestion assessmentId={id} count={list.length} />
    </>
  );
}

// The 'Class Code' form (joinSchema.ts): uppercase as typed, 6–8 characters.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { joinSchema, type JoinFormValues } from './joinSchema';

interface JoinClassFormProps {
  pending: boolean;
  onJoin: (joinCode: string) => void | Promise<void>;
}

export function JoinClassForm({ pending, onJoin }: JoinClassFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<JoinFormValues>({ resolver: zodResolver(joinSchema), defaultValues: { joinCode: '' } });
  const field = register('joinCode');
  const error = errors.joinCode?.message;

  return (
    <Form noValidate aria-label="Join a class" onSubmit={handleSubmit((values) => onJoin(values.joinCode))}>
      <Form.Group className="mb-3" controlId="joinCode">
        <Form.Label>Class Code</Form.Label>
        <Form.Control
          {...field}
          onChange={(event) => {
            const input = event.target as HTMLInputElement;
            const upper = input.value.toUpperCase();
            if (upper !== input.value) {
              const { selectionStart, selectionEnd } = input;
              input.value = upper;
              input.setSelectionRange(selectionStart, selectionEnd);
            }
            return field.onChange(event);
          }}
          placeholder="Enter class code (e.g., ABC123)"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="text-center fs-5 font-monospace text-uppercase"
          isInvalid={Boolean(error)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'joinCode-error' : undefined}
        />
        {error && (
          <Form.Control.Feedback type="invalid" id="joinCode-error">
            {error}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Button type="submit" className="w-100" disabled={pending}>
        {pending ? 'Joining Class...' : 'Join Class'}
      </Button>
    </Form>
  );
}

// "Sign in with class code" (docs/adr/015-students-without-email.md): a young student types the
// class code, picks their name from the class's list (first name and last initial) and picks their
// picture or types their two words. A session starts as with a password (full page load after).
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { serverMessageOr } from '../../api/apiError';
import { homePathAfterSignIn } from '../../session/user';
import { PicturePicker } from './pictures';
import { useClassCodeLoginMutation, useGetClassCodeRosterMutation, type Picture } from './studentLoginsApi';

type Step =
  | { at: 'code' }
  | { at: 'name'; students: { id: string; name: string }[] }
  | { at: 'secret'; student: { id: string; name: string } };

export function ClassCodeSignIn({ onBack }: { onBack?: () => void }) {
  const [lookUp, lookingUp] = useGetClassCodeRosterMutation();
  const [signIn, signingIn] = useClassCodeLoginMutation();
  const [code, setCode] = useState('');
  const [step, setStep] = useState<Step>({ at: 'code' });
  const [picture, setPicture] = useState<Picture>();
  const [words, setWords] = useState('');
  const [error, setError] = useState<string>();

  async function onCode(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setError('Type your class code');
    try {
      const { students } = await lookUp({ classCode: code }).unwrap();
      setError(undefined);
      setStep({ at: 'name', students });
    } catch (err) {
      setError(serverMessageOr(err, 'No class has this code. Check the code with your teacher.'));
    }
  }

  async function submit(
    studentId: string,
    secret: { kind: 'picture'; picture: Picture } | { kind: 'words'; words: string },
  ) {
    try {
      const { user } = await signIn({ classCode: code, studentId, secret }).unwrap();
      window.location.assign(homePathAfterSignIn(user));
    } catch (err) {
      setPicture(undefined);
      setError(serverMessageOr(err, 'That is not your picture or words. Try again, or ask your teacher.'));
    }
  }

  return (
    <section aria-label="Sign in with class code">
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {step.at === 'code' && (
        <Form noValidate onSubmit={onCode} aria-label="Your class code">
          <Form.Group className="mb-3" controlId="class-code">
            <Form.Label>Class code</Form.Label>
            <Form.Control
              value={code}
              autoComplete="off"
              autoCapitalize="characters"
              onChange={(e) => setCode(e.target.value)}
            />
          </Form.Group>
          <Button type="submit" className="w-100" disabled={lookingUp.isLoading}>
            Next
          </Button>
        </Form>
      )}
      {step.at === 'name' && (
        <div>
          <h2 className="h5">Who are you?</h2>
          {step.students.length === 0 ? (
            <p>Nobody in this class signs in this way. Ask your teacher.</p>
          ) : (
            <ul className="list-unstyled d-flex flex-wrap gap-2" aria-label="Your class">
              {step.students.map((s) => (
                <li key={s.id}>
                  <Button
                    variant="outline-primary"
                    size="lg"
                    onClick={() => {
                      setError(undefined);
                      setStep({ at: 'secret', student: s });
                    }}
                  >
                    {s.name}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {step.at === 'secret' && (
        <div>
          <h2 className="h5">Hi {step.student.name}!</h2>
          <PicturePicker
            idPrefix="sign-in"
            label="Pick your picture"
            value={picture}
            onChange={(p) => {
              setPicture(p);
              void submit(step.student.id, { kind: 'picture', picture: p });
            }}
          />
          <Form
            noValidate
            aria-label="Your two words"
            onSubmit={(e) => {
              e.preventDefault();
              if (words.trim()) void submit(step.student.id, { kind: 'words', words });
            }}
          >
            <Form.Group className="mb-3" controlId="sign-in-words">
              <Form.Label>Or type your two words</Form.Label>
              <Form.Control value={words} autoComplete="off" onChange={(e) => setWords(e.target.value)} />
            </Form.Group>
            <Button type="submit" disabled={signingIn.isLoading}>
              Sign in
            </Button>
          </Form>
          <Button variant="link" className="px-0 mt-2" onClick={() => setStep({ at: 'code' })}>
            That is not me
          </Button>
        </div>
      )}
      {onBack && (
        <Button variant="link" className="px-0 mt-2 d-block" onClick={onBack}>
          Sign in with email instead
        </Button>
      )}
    </section>
  );
}

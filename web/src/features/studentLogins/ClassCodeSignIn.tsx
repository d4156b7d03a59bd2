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
import { useTranslation } from '../../i18n/react';
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
  const { t } = useTranslation('auth');

  async function onCode(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setError(t('classCode.typeCode'));
    try {
      const { students } = await lookUp({ classCode: code }).unwrap();
      setError(undefined);
      setStep({ at: 'name', students });
    } catch (err) {
      setError(serverMessageOr(err, t('classCode.noClass')));
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
      setError(serverMessageOr(err, t('classCode.wrongSecret')));
    }
  }

  return (
    <section aria-label={t('classCode.section')}>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {step.at === 'code' && (
        <Form noValidate onSubmit={onCode} aria-label={t('classCode.codeForm')}>
          <Form.Group className="mb-3" controlId="class-code">
            <Form.Label>{t('classCode.code')}</Form.Label>
            <Form.Control
              value={code}
              autoComplete="off"
              autoCapitalize="characters"
              onChange={(e) => setCode(e.target.value)}
            />
          </Form.Group>
          <Button type="submit" className="w-100" disabled={lookingUp.isLoading}>
            {t('classCode.next')}
          </Button>
        </Form>
      )}
      {step.at === 'name' && (
        <div>
          <h2 className="h5">{t('classCode.whoAreYou')}</h2>
          {step.students.length === 0 ? (
            <p>{t('classCode.nobody')}</p>
          ) : (
            <ul className="list-unstyled d-flex flex-wrap gap-2" aria-label={t('classCode.yourClass')}>
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
          <h2 className="h5">{t('classCode.hi', { name: step.student.name })}</h2>
          <PicturePicker
            idPrefix="sign-in"
            label={t('classCode.pickPicture')}
            value={picture}
            onChange={(p) => {
              setPicture(p);
              void submit(step.student.id, { kind: 'picture', picture: p });
            }}
          />
          <Form
            noValidate
            aria-label={t('classCode.wordsForm')}
            onSubmit={(e) => {
              e.preventDefault();
              if (words.trim()) void submit(step.student.id, { kind: 'words', words });
            }}
          >
            <Form.Group className="mb-3" controlId="sign-in-words">
              <Form.Label>{t('classCode.typeWords')}</Form.Label>
              <Form.Control value={words} autoComplete="off" onChange={(e) => setWords(e.target.value)} />
            </Form.Group>
            <Button type="submit" disabled={signingIn.isLoading}>
              {t('classCode.signIn')}
            </Button>
          </Form>
          <Button variant="link" className="px-0 mt-2" onClick={() => setStep({ at: 'code' })}>
            {t('classCode.notMe')}
          </Button>
        </div>
      )}
      {onBack && (
        <Button variant="link" className="px-0 mt-2 d-block" onClick={onBack}>
          {t('classCode.withEmail')}
        </Button>
      )}
    </section>
  );
}

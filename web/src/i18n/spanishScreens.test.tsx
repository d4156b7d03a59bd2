// Screens rendered in Spanish: no raw key (a 'ns:key' or a key of the files shown as text, or a key
// the runtime reports missing), and the Spanish text each screen is known to say.
import 'fake-indexeddb/auto';
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppLayout } from '../components/AppLayout';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { AuthRoute } from '../features/auth/AuthPage';
import { StudentDashboard } from '../features/dashboard/StudentDashboard';
import { JoinClassPage, SignedOutJoinClassPage } from '../features/joinClass/JoinClassPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { ClassesPage } from '../features/classes/ClassesPage';
import { TakeAssessmentPage } from '../features/takeAssessment/TakeAssessmentPage';
import { authApi } from '../session/authApi';
import { makeStore } from '../app/store';
import { STUDENT, TEACHER, stubFetch } from '../test/fetchStub';
import { fireEvent } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '../test/test-utils';
import { expectNoRawKeys, inSpanish } from '../test/spanish';

const ME = { ...STUDENT, id: 'es-student', locale: 'es' as const };
const ENROLMENT = {
  id: 'm1',
  classId: 'c1',
  class: { name: 'Biología', period: '2', subject: 'Ciencias', teacherName: 'Ada Lovelace' },
};
const ASSESSMENT = {
  id: 'a1',
  classId: 'c1',
  title: 'Geography check',
  description: '',
  dueDate: '2026-03-10T15:00:00.000Z',
  isActive: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  className: 'Geography',
  subject: 'Social Studies',
  questionCount: 2,
  submitted: false,
  resultId: null,
};
const QUESTIONS = [
  {
    id: 'q1',
    assessmentId: 'a1',
    questionText: 'Capital of France?',
    questionType: 'multiple_choice',
    options: ['Paris', 'Lyon', 'Nice', 'Lille'],
    points: '1.00',
    position: 1,
  },
];

inSpanish();

beforeEach(() => {
  stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, ME),
    'GET /api/student/classes': () => jsonResponse(200, [ENROLMENT]),
    'GET /api/student/available-assessments': () => jsonResponse(200, [{ ...ASSESSMENT, questionCount: 2 }]),
    'GET /api/student/results': () => jsonResponse(200, []),
    'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, QUESTIONS),
    'GET /api/assessments/a1/responses': () => jsonResponse(200, []),
  });
});

async function renderSignedIn(ui: ReactElement, route = '/') {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, ME));
  return renderWithProviders(ui, { store, route });
}

describe('the screens in Spanish', () => {
  it('sign in / sign up', async () => {
    renderWithProviders(<AuthRoute />, { route: '/auth' });
    expect(await screen.findByRole('heading', { name: 'Bienvenido a Checkpoint' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(screen.getByLabelText('Contraseña')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('sign in with class code', async () => {
    renderWithProviders(<AuthRoute />, { route: '/auth?mode=class-code' });
    expect(await screen.findByRole('region', { name: 'Iniciar sesión con el código de la clase' })).toBeInTheDocument();
    expect(screen.getByLabelText('Código de la clase')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Siguiente' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('forgot password', async () => {
    renderWithProviders(<ForgotPasswordPage />, { route: '/forgot-password' });
    expect(await screen.findByRole('heading', { name: 'Restablecer su contraseña' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('join a class, signed out and signed in', async () => {
    renderWithProviders(<SignedOutJoinClassPage />, { route: '/join-class' });
    expect(await screen.findByRole('heading', { name: 'Unirse a una clase' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unirme a la clase' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the signed-in shell and the student dashboard', async () => {
    await renderSignedIn(
      <Routes>
        <Route element={<AppLayout user={ME} />}>
          <Route index element={<StudentDashboard />} />
          <Route path="/join-class" element={<JoinClassPage />} />
        </Route>
      </Routes>,
    );
    expect(await screen.findByText('Tus clases y evaluaciones')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: '¿Listo para presentar una evaluación?' })).toBeInTheDocument();
    expect(screen.getByText('2 preguntas')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Unirse a una clase' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the taking page', async () => {
    await renderSignedIn(
      <Routes>
        <Route path="/assessment/:id" element={<TakeAssessmentPage />} />
      </Routes>,
      '/assessment/a1',
    );
    // The question stays in the language it was written in; the page around it is Spanish.
    expect(await screen.findByText('Capital of France?')).toBeInTheDocument();
    expect(screen.getAllByText('Pregunta 1 de 1').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Entregar evaluación' })).toBeInTheDocument();
    expect(screen.getByTestId('due-date')).toHaveTextContent(/^(Vencida \(vencía el|Vence el) .*2026/);
    expectNoRawKeys();
  });

  it('the profile page', async () => {
    await renderSignedIn(<ProfilePage />, '/profile');
    expect(await screen.findByRole('heading', { name: 'Perfil' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    expectNoRawKeys();
  });
  it("the teacher's classes page, its class form's validation and its delete confirm", async () => {
    const TEACHER_ES = { ...TEACHER, id: 'es-teacher', locale: 'es' as const };
    const CLASS = {
      ...ENROLMENT.class,
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Biología',
      joinCode: 'BXR7KP',
      createdAt: '2024-03-05T10:00:00.000Z',
      teacherId: TEACHER_ES.id,
      studentCount: 3,
      assessmentCount: 1,
      belowStandard: 0,
      atStandard: 0,
      aboveStandard: 0,
      archived: false,
      coTeaching: false,
    };
    stubFetch({ 'GET /api/classes': () => jsonResponse(200, [CLASS]) });
    const store = makeStore();
    await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, TEACHER_ES));
    renderWithProviders(<ClassesPage />, { store, route: '/classes' });
    expect(await screen.findByRole('heading', { name: 'Mis clases' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Ver detalles de Biología' })).toBeInTheDocument();
    expect(screen.getByText('Código de la clase')).toBeInTheDocument();
    expectNoRawKeys();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar Biología' }));
    expect(await screen.findByText('¿Seguro que desea eliminar «Biología»?')).toBeInTheDocument();
    expectNoRawKeys();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Crear clase' }));
    const form = await screen.findByRole('form', { name: 'Crear clase' });
    fireEvent.submit(form);
    expect(await screen.findByText('El nombre de la clase es obligatorio')).toBeInTheDocument();
    expect(screen.getByText('El periodo es obligatorio')).toBeInTheDocument();
    expectNoRawKeys();
  });
});

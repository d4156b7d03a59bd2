// Publishes a realistic stream of the events the analytics service consumes, for its ingest
// benchmark (bench/analytics.mjs): classes of 25 as the other services would announce them, in the
// order they happen. Per class: its teacher's UserRegistered (one teacher per 5 classes), 25
// students' UserRegistered, ClassCreated, 25 StudentEnrolled, 10 AssessmentCreated, 10
// QuestionsChanged (10 multiple-choice questions each) and 250 ResultSubmitted (every student,
// every assessment, with their 10 answers): 321.2 events per class, 78 % of them results. Keys,
// topics, CloudEvents headers and protobuf payloads as the producers' outbox relay sends them
// (KafkaBus, acks=all), in chunks of 1,000. A tenant of its own ("ingest"), new ids every run.
//
// Usage: KAFKA_BROKERS=… ANALYTICS_EVENTS=100000 node --import tsx bench/analytics-events.ts
// Prints one JSON line: {events, byType, classes, results, tenantId, publishSeconds}.
import { randomUUID } from 'node:crypto';
import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentCreatedSchema,
  buildHeaders,
  ClassCreatedSchema,
  KafkaBus,
  QuestionsChangedSchema,
  ResultSubmittedSchema,
  StudentEnrolledSchema,
  toBinary,
  topicFor,
  UserRegisteredSchema,
  type BusMessage,
} from '@checkpoint/events';

const TARGET = Number(process.env.ANALYTICS_EVENTS ?? 100_000);
const CLASS_SIZE = 25;
const ASSESSMENTS = 10;
const QUESTIONS = 10;
const CLASSES_PER_TEACHER = 5;
const OPTIONS = ['Option A', 'Option B', 'Option C', 'Option D'];

const brokers = process.env.KAFKA_BROKERS;
if (!brokers) throw new Error('KAFKA_BROKERS is required');
const tenantId = randomUUID();
const messages: BusMessage[] = [];
const byType: Record<string, number> = {};
let clock = Date.parse('2027-01-11T08:00:00Z');
const at = () => timestampFromDate(new Date((clock += 1000)));

function add<Desc extends DescMessage>(source: string, schema: Desc, key: string, message: MessageShape<Desc>) {
  const type = schema.typeName;
  byType[type] = (byType[type] ?? 0) + 1;
  messages.push({
    topic: topicFor(schema),
    key,
    value: toBinary(schema, message),
    headers: buildHeaders({ id: randomUUID(), type, source, time: new Date(clock), tenantId }),
  });
}

let classes = 0;
let results = 0;
let teacherId = '';
while (messages.length < TARGET) {
  if (classes % CLASSES_PER_TEACHER === 0) {
    teacherId = randomUUID();
    add(
      'identity',
      UserRegisteredSchema,
      teacherId,
      create(UserRegisteredSchema, {
        userId: teacherId,
        tenantId,
        email: `teacher.${classes}.${tenantId.slice(0, 8)}@ingest.example.org`,
        firstName: 'Ingrid',
        lastName: `Teacher ${classes}`,
        role: 'teacher',
        tenantKind: 'district',
        occurredAt: at(),
      }),
    );
  }
  const classId = randomUUID();
  const students = Array.from({ length: CLASS_SIZE }, () => randomUUID());
  for (const [i, userId] of students.entries())
    add(
      'identity',
      UserRegisteredSchema,
      userId,
      create(UserRegisteredSchema, {
        userId,
        tenantId,
        email: `student.${classes}.${i}.${tenantId.slice(0, 8)}@ingest.example.org`,
        firstName: 'Sam',
        lastName: `Student ${classes}-${i}`,
        role: 'student',
        tenantKind: 'district',
        occurredAt: at(),
      }),
    );
  add(
    'class',
    ClassCreatedSchema,
    classId,
    create(ClassCreatedSchema, {
      classId,
      tenantId,
      teacherId,
      name: `Science ${classes}`,
      subject: 'Science',
      period: String((classes % 6) + 1),
      joinCode: classId.slice(0, 6).toUpperCase(),
      occurredAt: at(),
    }),
  );
  for (const studentId of students)
    add(
      'class',
      StudentEnrolledSchema,
      classId,
      create(StudentEnrolledSchema, {
        classId,
        tenantId,
        studentId,
        membershipId: randomUUID(),
        occurredAt: at(),
      }),
    );
  for (let k = 1; k <= ASSESSMENTS; k++) {
    const assessmentId = randomUUID();
    const questions = Array.from({ length: QUESTIONS }, (_, p) => ({
      questionId: randomUUID(),
      questionText: `Question ${p + 1} of check ${k}?`,
      questionType: 'multiple_choice',
      options: OPTIONS,
      correctAnswer: OPTIONS[p % 4]!,
      points: 1,
    }));
    add(
      'assessment',
      AssessmentCreatedSchema,
      assessmentId,
      create(AssessmentCreatedSchema, {
        assessmentId,
        tenantId,
        classId,
        teacherId,
        title: `Photosynthesis check ${k}`,
        description: 'Ingest benchmark',
        topic: 'Photosynthesis',
        standard: `STD-${k}`,
        isActive: true,
        occurredAt: at(),
      }),
    );
    add(
      'assessment',
      QuestionsChangedSchema,
      assessmentId,
      create(QuestionsChangedSchema, {
        assessmentId,
        tenantId,
        classId,
        questions,
        occurredAt: at(),
      }),
    );
    for (const [i, studentId] of students.entries()) {
      const right = Math.min(QUESTIONS, Math.max(0, 3 + ((i * 7 + k * 3 + classes) % 8)));
      const percentage = (right * 100) / QUESTIONS;
      add(
        'assessment',
        ResultSubmittedSchema,
        assessmentId,
        create(ResultSubmittedSchema, {
          resultId: randomUUID(),
          assessmentId,
          tenantId,
          classId,
          studentId,
          earnedPoints: right,
          totalPoints: QUESTIONS,
          percentage,
          level: percentage >= 90 ? 'above' : percentage >= 80 ? 'at' : 'below',
          answers: questions.map((q, p) => ({
            questionId: q.questionId,
            answer: p < right ? q.correctAnswer : OPTIONS[(p + 1) % 4]!,
            correct: p < right,
          })),
          submittedAt: at(),
        }),
      );
      results++;
    }
  }
  classes++;
}

const bus = new KafkaBus({ brokers, clientId: 'bench-analytics-events' });
const t0 = Date.now();
await bus.connect();
for (let i = 0; i < messages.length; i += 1000) await bus.publish(messages.slice(i, i + 1000));
const publishSeconds = (Date.now() - t0) / 1000;
await bus.stop();
console.log(JSON.stringify({ events: messages.length, byType, classes, results, tenantId, publishSeconds }));

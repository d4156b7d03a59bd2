import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { QtiPackageError, readQtiPackage, writeQtiPackage, type QtiQuestion } from './qti-package.ts';

const QTI3 = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const CP = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';

const questions: QtiQuestion[] = [
  {
    questionText: 'Which gas do plants take in for photosynthesis?',
    questionType: 'multiple_choice',
    options: ['Oxygen', 'Carbon dioxide', 'Nitrogen', 'Helium & <argon>'],
    correctAnswer: 'Carbon dioxide',
    acceptedAnswers: [],
    points: 2.5,
    standards: [
      {
        identifier: '6abfaa45-644b-52e8-891e-4fa4045a6c69',
        label: 'MS-LS1-6',
        uri: 'https://case.example.org/ims/case/v1p0/CFItems/6abfaa45-644b-52e8-891e-4fa4045a6c69',
      },
    ],
  },
  {
    questionText: 'The sun heats water in the ocean.\nWater vapour rises.',
    questionType: 'true_false',
    options: ['True', 'False'],
    correctAnswer: 'False',
    acceptedAnswers: [],
    points: 1,
    standards: [],
  },
  {
    questionText: 'What is the name of the process in which liquid water becomes a gas?',
    questionType: 'short_answer',
    options: [],
    correctAnswer: 'evaporation',
    acceptedAnswers: ['vaporization', "it's evaporating"],
    points: 3,
    standards: [],
  },
];

const manifest = (resources: string) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="${CP}" identifier="m1"><metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata>
<organizations/><resources>${resources}</resources></manifest>`;
const itemResource = (href: string, type = 'imsqti_item_xmlv3p0') =>
  `<resource identifier="${href}" type="${type}" href="${href}"><file href="${href}"/></resource>`;
const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));

// Written after the QTI 3.0 specification's choice example.
const choiceItem = (choices: string[], extraBody = '') => `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="${QTI3}" identifier="choice" title="Unattended luggage" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>C2</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <p>Look at the text in the picture.</p>${extraBody}
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1">
      <qti-prompt>What does it say?</qti-prompt>
      ${choices.map((c, i) => `<qti-simple-choice identifier="C${i + 1}">${c}</qti-simple-choice>`).join('\n      ')}
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;

// Written after the QTI 2.2 specification's text entry example (a mapping with partial credit).
const textEntry22 = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2" identifier="textEntry" title="Capital" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">
    <correctResponse><value>Paris</value></correctResponse>
    <mapping defaultValue="0">
      <mapEntry mapKey="Paris" mappedValue="2"/>
      <mapEntry mapKey="Lutetia" mappedValue="2"/>
      <mapEntry mapKey="France" mappedValue="0.5"/>
    </mapping>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>The capital of France is <textEntryInteraction responseIdentifier="RESPONSE" expectedLength="15"/>.</p>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p2/rptemplates/map_response"/>
</assessmentItem>`;

const extendedText = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="${QTI3}" identifier="essay" title="Postcard" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-item-body><p>Write a postcard to a friend.</p>
    <qti-extended-text-interaction response-identifier="RESPONSE" expected-lines="5"/>
  </qti-item-body>
</qti-assessment-item>`;

describe('QTI packages', () => {
  it('writes a QTI 3.0 package that reads back to the same questions, in order, with their standards', () => {
    const bytes = writeQtiPackage({ id: 'a1', title: 'Plants & water', description: 'Unit 3 check', questions });
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual([
      'assessment.xml',
      'imsmanifest.xml',
      'items/item-1.xml',
      'items/item-2.xml',
      'items/item-3.xml',
    ]);
    const item3 = strFromU8(files['items/item-3.xml']!);
    expect(item3).toContain('<qti-text-entry-interaction');
    expect(item3).toContain('map-key="vaporization" mapped-value="3" case-sensitive="false"');
    expect(strFromU8(files['items/item-1.xml']!)).toContain('Helium &amp; &lt;argon&gt;');
    expect(strFromU8(files['imsmanifest.xml']!)).toContain('<csm:GUID>6abfaa45-644b-52e8-891e-4fa4045a6c69</csm:GUID>');

    const read = readQtiPackage(bytes);
    expect(read.title).toBe('Plants & water');
    expect(read.description).toBe('Unit 3 check');
    expect(read.report).toEqual([]);
    expect(read.items.map((i) => i.question)).toEqual(questions);
    expect(read.items.map((i) => i.file)).toEqual(['items/item-1.xml', 'items/item-2.xml', 'items/item-3.xml']);
  });

  it('reads QTI 2.2 text entry: full-credit alternatives accepted, partial credit and case named in the report', () => {
    const read = readQtiPackage(
      zip({ 'imsmanifest.xml': manifest(itemResource('te.xml', 'imsqti_item_xmlv2p2')), 'te.xml': textEntry22 }),
    );
    expect(read.items).toHaveLength(1);
    expect(read.items[0]!.question).toMatchObject({
      questionText: 'The capital of France is _____ .',
      questionType: 'short_answer',
      correctAnswer: 'Paris',
      acceptedAnswers: ['Lutetia'],
      points: 2,
    });
    expect(read.report).toEqual([
      {
        file: 'te.xml',
        item: 'textEntry',
        reason: '"France" earned part of the points (0.5 of 2); Checkpoint scores it as wrong',
        imported: true,
      },
    ]);
  });

  it('lists what it leaves out with the file and the reason, and imports the rest', () => {
    const read = readQtiPackage(
      zip({
        'imsmanifest.xml': manifest(
          ['c.xml', 'essay.xml', 'five.xml', 'img.xml', 'missing.xml', 'broken.xml']
            .map((h) => itemResource(h))
            .join(''),
        ),
        'c.xml': choiceItem(['Stop', 'Unattended luggage will be removed', 'Go', 'Exit']),
        'essay.xml': extendedText,
        'five.xml': choiceItem(['a', 'b', 'c', 'd', 'e']),
        'img.xml': choiceItem(['a', 'b', 'c', 'd'], '<img src="sign.png" alt="A sign"/>'),
        'broken.xml': '<qti-assessment-item><qti-item-body></qti-assessment-item>',
      }),
    );
    expect(read.items.map((i) => i.question.questionText)).toEqual([
      'Look at the text in the picture.\nWhat does it say?',
    ]);
    expect(read.items[0]!.question.correctAnswer).toBe('Unattended luggage will be removed');
    expect(read.report.map((r) => [r.file, r.imported])).toEqual([
      ['essay.xml', false],
      ['five.xml', false],
      ['img.xml', false],
      ['missing.xml', false],
      ['broken.xml', false],
    ]);
    const reasons = read.report.map((r) => r.reason);
    expect(reasons[0]).toMatch(/extended-text-interaction is not a question type Checkpoint has/);
    expect(reasons[1]).toBe('multiple choice in Checkpoint has 4 options; this item has 5');
    expect(reasons[2]).toMatch(/media \(<img>\)/);
    expect(reasons[3]).toMatch(/does not hold it/);
    expect(reasons[4]).toMatch(/broken.xml is not well-formed XML/);
  });

  it('reads one item sent as XML on its own', () => {
    const read = readQtiPackage(strToU8(choiceItem(['True', 'False'])));
    expect(read.items[0]!.question).toMatchObject({ questionType: 'true_false', correctAnswer: 'False' });
  });

  it.each([
    ['not a package', strToU8('hello'), /Send a QTI content package/],
    ['a zip without manifest', zip({ 'item.xml': extendedText }), /no imsmanifest.xml/],
    [
      'a broken manifest',
      zip({ 'imsmanifest.xml': '<manifest><resources>' }),
      /imsmanifest.xml is not well-formed XML/,
    ],
    ['a manifest with no items', zip({ 'imsmanifest.xml': manifest('') }), /lists no QTI items/],
    [
      'entities',
      strToU8('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'),
      /declares a DOCTYPE or entities/,
    ],
    ['a broken zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), /not a readable zip/],
  ])('refuses %s as a whole', (_what, bytes, message) => {
    expect(() => readQtiPackage(bytes)).toThrow(QtiPackageError);
    expect(() => readQtiPackage(bytes)).toThrow(message);
  });
});

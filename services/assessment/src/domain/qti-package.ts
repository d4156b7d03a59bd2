// QTI content packages (#31 item 6; docs/adr/013-qti.md): an assessment written out as a QTI 3.0
// package, and a QTI 3.0 (or 2.1/2.2) package or item read back into the questions Checkpoint can
// hold. Pure: bytes in, bytes or questions out; the use case (qti.use-case.ts) checks the questions
// on the house's rules and stores them.
//
// What maps to what:
// - multiple choice: a single-choice qti-choice-interaction of 4 qti-simple-choice, the key its
//   qti-correct-response, scored by the match_correct template;
// - true/false: the same with two choices True and False (identifiers `true`, `false`);
// - short answer: a qti-text-entry-interaction (its blank written as "_____" in the question text),
//   the key and every accepted alternative a qti-map-entry worth the question's points, not case
//   sensitive, scored by the map_response template;
// - points: the item's MAXSCORE (read back from it, else the mapping's top value, else the test's
//   weight, else 1);
// - standards: the CASE items the question is aligned to, in the manifest's resource metadata
//   (csm:curriculumStandardsMetadataSet, as 1EdTech's CASE example package writes them).
// Anything else a package holds (other interactions, images, media, formulas, partial credit) is
// named in the report with its file and the reason, never dropped without a word.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

export type QtiQuestionType = 'multiple_choice' | 'true_false' | 'short_answer';

export interface QtiStandard {
  /** The CASE item's identifier (its GUID). */
  identifier: string;
  /** Its human-readable code or statement, as the package labels it. */
  label: string;
  /** The CASE item's URI at its provider ('' when unknown). */
  uri: string;
}

export interface QtiQuestion {
  questionText: string;
  questionType: QtiQuestionType;
  options: string[];
  correctAnswer: string;
  acceptedAnswers: string[];
  points: number;
  standards: QtiStandard[];
}

export interface QtiAssessment {
  id: string;
  title: string;
  description: string;
  questions: QtiQuestion[];
}

/** Something of the package that did not come in as it was (`imported`: the item did, without it). */
export interface QtiReportEntry {
  file: string;
  item: string;
  reason: string;
  imported: boolean;
}

export interface ReadItem {
  file: string;
  item: string;
  question: QtiQuestion;
}

export interface ReadPackage {
  title: string;
  description: string;
  items: ReadItem[];
  report: QtiReportEntry[];
}

/** A package that cannot be read at all: nothing of it is imported. */
export class QtiPackageError extends Error {}

const QTI3_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const CSM_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscsmd_v1p1';
const LOM_NS = 'http://ltsc.ieee.org/xsd/LOM';
const MATCH_CORRECT = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml';
const MAP_RESPONSE = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml';
const CHOICE_IDS = ['A', 'B', 'C', 'D'];
/** The blank of a short answer's text entry, in the question's text. */
export const BLANK = '_____';
const MANIFEST = 'imsmanifest.xml';
/** Inflated bytes read from one package at most, and the inflate ratio past which a file is a bomb. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
const MAX_INFLATE_RATIO = 200;

// ---------------------------------------------------------------- writing

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
const num = (n: number) => String(Math.round(n * 100) / 100);

/** The question's text as paragraphs (one per line of it). */
function paragraphs(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => `      <p>${esc(line)}</p>`)
    .join('\n');
}

function itemXml(identifier: string, q: QtiQuestion, position: number): string {
  const outcomes = [
    `  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float">`,
    `    <qti-default-value><qti-value>0</qti-value></qti-default-value>`,
    `  </qti-outcome-declaration>`,
    `  <qti-outcome-declaration identifier="MAXSCORE" cardinality="single" base-type="float">`,
    `    <qti-default-value><qti-value>${num(q.points)}</qti-value></qti-default-value>`,
    `  </qti-outcome-declaration>`,
  ];
  let declaration: string[];
  let body: string[];
  let template: string;
  if (q.questionType === 'short_answer') {
    const keys = [q.correctAnswer, ...q.acceptedAnswers];
    declaration = [
      `  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">`,
      `    <qti-correct-response><qti-value>${esc(q.correctAnswer)}</qti-value></qti-correct-response>`,
      `    <qti-mapping default-value="0" lower-bound="0" upper-bound="${num(q.points)}">`,
      ...keys.map(
        (k) => `      <qti-map-entry map-key="${esc(k)}" mapped-value="${num(q.points)}" case-sensitive="false"/>`,
      ),
      `    </qti-mapping>`,
      `  </qti-response-declaration>`,
    ];
    body = [
      paragraphs(q.questionText),
      `      <p><qti-text-entry-interaction response-identifier="RESPONSE" expected-length="${Math.max(15, ...keys.map((k) => k.length))}"/></p>`,
    ];
    template = MAP_RESPONSE;
  } else {
    const trueFalse = q.questionType === 'true_false';
    const ids = trueFalse ? ['true', 'false'] : CHOICE_IDS;
    const key = ids[q.options.indexOf(q.correctAnswer)] ?? ids[0]!;
    declaration = [
      `  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">`,
      `    <qti-correct-response><qti-value>${key}</qti-value></qti-correct-response>`,
      `  </qti-response-declaration>`,
    ];
    body = [
      `    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1">`,
      `      <qti-prompt>${q.questionText.split(/\r?\n/).map(esc).join('<br/>')}</qti-prompt>`,
      ...q.options.map((o, i) => `      <qti-simple-choice identifier="${ids[i]}">${esc(o)}</qti-simple-choice>`),
      `    </qti-choice-interaction>`,
    ];
    template = MATCH_CORRECT;
  }
  const isChoice = q.questionType !== 'short_answer';
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<qti-assessment-item xmlns="${QTI3_NS}" identifier="${identifier}" title="Question ${position}" adaptive="false" time-dependent="false">`,
    ...declaration,
    ...outcomes,
    `  <qti-item-body>`,
    ...(isChoice ? body : [`    <div>`, ...body, `    </div>`]),
    `  </qti-item-body>`,
    `  <qti-response-processing template="${template}"/>`,
    `</qti-assessment-item>`,
    '',
  ].join('\n');
}

function standardsMetadata(standards: readonly QtiStandard[]): string[] {
  if (standards.length === 0) return [];
  return [
    `      <metadata>`,
    `        <csm:curriculumStandardsMetadataSet>`,
    `          <csm:curriculumStandardsMetadata>`,
    `            <csm:setOfGUIDs>`,
    ...standards.flatMap((s) => [
      `              <csm:labelledGUID>`,
      `                <csm:label>${esc(s.label)}</csm:label>`,
      ...(s.uri ? [`                <csm:caseItemURI>${esc(s.uri)}</csm:caseItemURI>`] : []),
      `                <csm:GUID>${esc(s.identifier)}</csm:GUID>`,
      `              </csm:labelledGUID>`,
    ]),
    `            </csm:setOfGUIDs>`,
    `          </csm:curriculumStandardsMetadata>`,
    `        </csm:curriculumStandardsMetadataSet>`,
    `      </metadata>`,
  ];
}

/** The assessment as a QTI 3.0 content package (zip): imsmanifest.xml, an assessment test, an item per question. */
export function writeQtiPackage(a: QtiAssessment): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const testId = `test-${a.id}`;
  const items = a.questions.map((q, i) => ({ id: `item-${i + 1}`, href: `items/item-${i + 1}.xml`, q }));
  for (const [i, it] of items.entries()) files[it.href] = strToU8(itemXml(it.id, it.q, i + 1));
  files['assessment.xml'] = strToU8(
    [
      `<?xml version="1.0" encoding="UTF-8"?>`,
      `<qti-assessment-test xmlns="${QTI3_NS}" identifier="${testId}" title="${esc(a.title)}">`,
      `  <qti-test-part identifier="part-1" navigation-mode="nonlinear" submission-mode="simultaneous">`,
      `    <qti-assessment-section identifier="section-1" title="${esc(a.title)}" visible="false">`,
      ...items.map((it) => `      <qti-assessment-item-ref identifier="${it.id}" href="${it.href}"/>`),
      `    </qti-assessment-section>`,
      `  </qti-test-part>`,
      `</qti-assessment-test>`,
      '',
    ].join('\n'),
  );
  files[MANIFEST] = strToU8(
    [
      `<?xml version="1.0" encoding="UTF-8"?>`,
      `<manifest xmlns="${CP_NS}" xmlns:imsmd="${LOM_NS}" xmlns:csm="${CSM_NS}" identifier="manifest-${a.id}">`,
      `  <metadata>`,
      `    <schema>QTI Package</schema>`,
      `    <schemaversion>3.0.0</schemaversion>`,
      `    <imsmd:lom>`,
      `      <imsmd:general>`,
      `        <imsmd:title><imsmd:string xml:lang="en">${esc(a.title)}</imsmd:string></imsmd:title>`,
      ...(a.description
        ? [
            `        <imsmd:description><imsmd:string xml:lang="en">${esc(a.description)}</imsmd:string></imsmd:description>`,
          ]
        : []),
      `      </imsmd:general>`,
      `    </imsmd:lom>`,
      `  </metadata>`,
      `  <organizations/>`,
      `  <resources>`,
      `    <resource identifier="${testId}" type="imsqti_test_xmlv3p0" href="assessment.xml">`,
      `      <file href="assessment.xml"/>`,
      ...items.map((it) => `      <dependency identifierref="${it.id}"/>`),
      `    </resource>`,
      ...items.flatMap((it) => [
        `    <resource identifier="${it.id}" type="imsqti_item_xmlv3p0" href="${it.href}">`,
        ...standardsMetadata(it.q.standards),
        `      <file href="${it.href}"/>`,
        `    </resource>`,
      ]),
      `  </resources>`,
      `</manifest>`,
      '',
    ].join('\n'),
  );
  return zipSync(files, { level: 6, mtime: new Date('2000-01-01T00:00:00Z') });
}

// ---------------------------------------------------------------- reading

/**
 * QTI 3.0 names its elements and attributes in kebab case with a `qti-` prefix, QTI 2.x in camel
 * case: `name` is the 3.0 name without its prefix ("choice-interaction"), and both match.
 */
const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const isNamed = (el: Element, name: string) => el.localName === `qti-${name}` || el.localName === camel(name);
const attr = (el: Element, name: string) => el.getAttribute(name) ?? el.getAttribute(camel(name)) ?? '';

function elements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}
function allElements(parent: Element): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    for (const child of elements(el)) {
      out.push(child);
      walk(child);
    }
  };
  walk(parent);
  return out;
}
/** Elements under `parent` of this QTI name (either version's spelling) or plain local name. */
const descendants = (parent: Element, name: string) =>
  allElements(parent).filter((el) => isNamed(el, name) || el.localName === name);
const first = (parent: Element, name: string) => descendants(parent, name)[0];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Parses one XML file; an unreadable one is a QtiPackageError naming it. */
function parseXml(file: string, text: string): Element {
  // A DTD can declare entities that expand without bound; QTI files need none.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new QtiPackageError(`${file} declares a DOCTYPE or entities, which are not read`);
  let problem: string | undefined;
  let root: Element | null = null;
  try {
    root = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') problem ??= message.split('\n')[0];
      },
    }).parseFromString(text, 'text/xml').documentElement;
  } catch (err) {
    // xmldom throws on a fatal error (after reporting it above, or not).
    problem ??= (err as Error).message.split('\n')[0];
  }
  if (problem || !root) throw new QtiPackageError(`${file} is not well-formed XML: ${problem ?? 'no root element'}`);
  return root;
}

/** Paths inside the package: `href` relative to the file that names it, without ./ or ../ escaping the root. */
function resolvePath(from: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return undefined;
  const parts = from.split('/').slice(0, -1);
  for (const p of decodeURIComponent(href.split('#')[0]!).split('/')) {
    if (p === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

const MEDIA = ['img', 'object', 'audio', 'video', 'math', 'svg', 'picture', 'iframe', 'embed'];
const SUPPORTED_INTERACTIONS = new Set(['choice-interaction', 'text-entry-interaction']);

/** Text of an element as a reader sees it, with each text entry as the blank. */
function textOf(el: Element): string {
  let out = '';
  const walk = (node: Element) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      // White space in the markup is a space, as a browser shows it; lines come from blocks and <br>.
      if (n.nodeType === 3 || n.nodeType === 4) out += (n.nodeValue ?? '').replace(/\s+/g, ' ');
      else if (n.nodeType === 1) {
        const child = n as Element;
        if (isNamed(child, 'text-entry-interaction')) out += ` ${BLANK} `;
        else if (isNamed(child, 'choice-interaction') || isNamed(child, 'rubric-block')) continue;
        else {
          const block = /^(p|div|br|li|blockquote|pre|h[1-6]|tr|section|article)$/.test(child.localName ?? '');
          if (block) out += '\n';
          walk(child);
          if (block) out += '\n';
        }
      }
    }
  };
  walk(el);
  return out
    .split('\n')
    .map(squash)
    .filter((l) => l !== '')
    .join('\n');
}

type ItemOutcome = { question: Omit<QtiQuestion, 'standards'>; notes: string[] } | { skipped: string };

const interactionName = (el: Element) =>
  (el.localName ?? '')
    .replace(/^qti-/, '')
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase();

/** One assessment item as a Checkpoint question, or why it cannot be one. */
export function readItem(root: Element, weight: number | undefined): ItemOutcome {
  if (!isNamed(root, 'assessment-item')) return { skipped: `not an assessment item (<${root.localName}>)` };
  const body = first(root, 'item-body');
  if (!body) return { skipped: 'the item has no item body' };
  const interactions = allElements(body).filter((el) => /interaction$/i.test(el.localName ?? ''));
  const unsupported = interactions.find((el) => !SUPPORTED_INTERACTIONS.has(interactionName(el)));
  if (unsupported)
    return {
      skipped: `${interactionName(unsupported)} is not a question type Checkpoint has (multiple choice, true/false, short answer)`,
    };
  if (interactions.length === 0) return { skipped: 'the item has no interaction to answer' };
  if (interactions.length > 1)
    return { skipped: `the item has ${interactions.length} interactions; Checkpoint questions have one` };
  const media = MEDIA.find((name) => descendants(body, name).length > 0);
  if (media)
    return {
      skipped: `the item shows ${media === 'math' ? 'a formula (MathML)' : `media (<${media}>)`}, which Checkpoint cannot show`,
    };
  if (first(root, 'template-declaration')) return { skipped: 'the item is a template (its values vary per student)' };
  if (first(root, 'assessment-stimulus-ref'))
    return { skipped: 'the item depends on a shared passage (assessment stimulus), which Checkpoint does not hold' };
  if (root.getAttribute('adaptive') === 'true')
    return { skipped: 'the item is adaptive (several attempts with feedback)' };

  const interaction = interactions[0]!;
  const responseId = attr(interaction, 'response-identifier');
  const declaration = descendants(root, 'response-declaration').find((d) => attr(d, 'identifier') === responseId);
  if (!declaration) return { skipped: `no response declaration for ${responseId || 'its interaction'}` };
  const correct = first(declaration, 'correct-response');
  const keys = correct ? descendants(correct, 'value').map((v) => squash(v.textContent ?? '')) : [];
  const notes: string[] = [];
  if (['modal-feedback', 'feedback-inline', 'feedback-block'].some((name) => first(root, name)))
    notes.push('its feedback to the student is not imported');
  const maxScore = descendants(root, 'outcome-declaration').find((o) => attr(o, 'identifier') === 'MAXSCORE');
  const maxValue = maxScore && first(maxScore, 'value');
  const declaredMax = maxValue ? Number(maxValue.textContent) : NaN;

  if (isNamed(interaction, 'choice-interaction')) {
    if (attr(declaration, 'cardinality') !== 'single' || Number(attr(interaction, 'max-choices') || '1') !== 1)
      return { skipped: 'the item asks for several choices; Checkpoint questions take one' };
    if (keys.length !== 1) return { skipped: 'the item has no single correct choice' };
    const choices = descendants(interaction, 'simple-choice').map((c) => ({
      id: attr(c, 'identifier'),
      text: squash(textOf(c).replace(/\n/g, ' ')),
    }));
    const key = choices.find((c) => c.id === keys[0]);
    if (!key) return { skipped: 'its correct response names no choice of the item' };
    const prompt = first(interaction, 'prompt');
    const questionText = [textOf(body), prompt ? textOf(prompt) : ''].filter(Boolean).join('\n');
    const points = pointsOf(declaredMax, undefined, weight);
    const trueFalse =
      choices.length === 2 &&
      choices
        .map((c) => c.text.toLowerCase())
        .sort()
        .join() === 'false,true';
    if (trueFalse)
      return {
        question: {
          questionText,
          questionType: 'true_false',
          options: ['True', 'False'],
          correctAnswer: key.text.toLowerCase() === 'true' ? 'True' : 'False',
          acceptedAnswers: [],
          points,
        },
        notes,
      };
    if (choices.length !== 4)
      return { skipped: `multiple choice in Checkpoint has 4 options; this item has ${choices.length}` };
    return {
      question: {
        questionText,
        questionType: 'multiple_choice',
        options: choices.map((c) => c.text),
        correctAnswer: key.text,
        acceptedAnswers: [],
        points,
      },
      notes,
    };
  }

  // A text entry: the key, the alternatives the mapping scores in full, none case-sensitive.
  const mapping = first(declaration, 'mapping');
  const entries = mapping
    ? descendants(mapping, 'map-entry').map((e) => ({
        key: squash(attr(e, 'map-key')),
        value: Number(attr(e, 'mapped-value')),
        caseSensitive: attr(e, 'case-sensitive') === 'true',
      }))
    : [];
  const top = entries.length ? Math.max(...entries.map((e) => e.value)) : NaN;
  const full = entries.filter((e) => e.value === top && e.key !== '');
  const correctAnswer = keys[0] ?? full[0]?.key;
  if (!correctAnswer) return { skipped: 'the text entry has no correct response' };
  for (const e of entries)
    if (e.value !== top && e.value > 0)
      notes.push(`"${e.key}" earned part of the points (${e.value} of ${top}); Checkpoint scores it as wrong`);
  if (entries.some((e) => e.caseSensitive) || (!mapping && keys.length > 0))
    notes.push('the answer was case-sensitive; Checkpoint accepts it in any case');
  const accepted = [...keys.slice(1), ...full.map((e) => e.key)].filter(
    (k, i, all) =>
      k.toLowerCase() !== correctAnswer.toLowerCase() &&
      all.findIndex((x) => x.toLowerCase() === k.toLowerCase()) === i,
  );
  // The blank alone on the last line (as Checkpoint writes it) is where the answer goes, not text.
  const lines = textOf(body).split('\n');
  if (lines.length > 1 && lines.at(-1) === BLANK) lines.pop();
  return {
    question: {
      questionText: lines.join('\n'),
      questionType: 'short_answer',
      options: [],
      correctAnswer,
      acceptedAnswers: accepted,
      points: pointsOf(declaredMax, Number.isFinite(top) && top > 0 ? top : undefined, weight),
    },
    notes,
  };
}

const pointsOf = (declaredMax: number, mappedTop: number | undefined, weight: number | undefined) =>
  [declaredMax, mappedTop, weight].find((p): p is number => p !== undefined && Number.isFinite(p) && p > 0) ?? 1;

/** The CASE alignments of a manifest resource (csm:labelledGUID: GUID, label, caseItemURI). */
function standardsOf(resource: Element | undefined): QtiStandard[] {
  return resource
    ? Array.from(resource.getElementsByTagNameNS(CSM_NS, 'labelledGUID')).map((g) => {
        const text = (name: string) => squash(g.getElementsByTagNameNS(CSM_NS, name)[0]?.textContent ?? '');
        const uri = text('caseItemURI');
        return { identifier: text('GUID') || (uri.split('/').pop() ?? ''), label: text('label'), uri };
      })
    : [];
}

function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  let inflated = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        if (!/\.xml$/i.test(file.name)) return false;
        inflated += file.originalSize;
        if (inflated > MAX_INFLATED_BYTES || file.originalSize > Math.max(1 << 20, file.size * MAX_INFLATE_RATIO))
          throw new QtiPackageError(`The package inflates to more than a QTI package does (${file.name})`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof QtiPackageError) throw err;
    throw new QtiPackageError('The file is not a readable zip archive');
  }
}

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/**
 * A QTI content package (zip with imsmanifest.xml) or one item's XML file: its title, the
 * questions it holds in the test's order, and the report of what did not come in as it was.
 */
export function readQtiPackage(bytes: Uint8Array): ReadPackage {
  if (!isZip(bytes)) {
    const text = strFromU8(bytes);
    if (!text.trimStart().startsWith('<'))
      throw new QtiPackageError('Send a QTI content package (zip with imsmanifest.xml) or one QTI item as XML');
    const root = parseXml('item.xml', text);
    const read = readFile('item.xml', root, undefined, []);
    return { title: root.getAttribute('title') || 'Imported item', description: '', ...read };
  }
  const files = unzip(bytes);
  const manifestBytes = files[MANIFEST];
  if (!manifestBytes) throw new QtiPackageError('The package has no imsmanifest.xml at its root');
  const manifest = parseXml(MANIFEST, strFromU8(manifestBytes));
  if (manifest.localName !== 'manifest')
    throw new QtiPackageError('imsmanifest.xml is not an IMS content package manifest');
  const resources = descendants(manifest, 'resource').filter((r) => r.localName === 'resource');
  const itemResources = resources.filter((r) => /^imsqti_item_xmlv(3p0|2p[0-2])/.test(r.getAttribute('type') ?? ''));
  const tests = resources.filter((r) => /^imsqti_test_xmlv(3p0|2p[0-2])/.test(r.getAttribute('type') ?? ''));
  const byHref = new Map(itemResources.map((r) => [resolvePath('', r.getAttribute('href') ?? '') ?? '', r]));

  // The test's order when there is one test; else the manifest's.
  let title = '';
  let order: { href: string; weight: number | undefined }[] = itemResources.map((r) => ({
    href: resolvePath('', r.getAttribute('href') ?? '') ?? '',
    weight: undefined,
  }));
  const report: QtiReportEntry[] = [];
  if (tests.length > 1)
    report.push({
      file: MANIFEST,
      item: '',
      reason: `the package holds ${tests.length} tests; their items are imported as one assessment`,
      imported: true,
    });
  const testHref = tests.length === 1 ? resolvePath('', tests[0]!.getAttribute('href') ?? '') : undefined;
  if (testHref && files[testHref]) {
    const test = parseXml(testHref, strFromU8(files[testHref]));
    title = test.getAttribute('title') ?? '';
    const refs = descendants(test, 'assessment-item-ref').map((ref) => {
      const w = descendants(ref, 'weight')[0];
      return { href: resolvePath(testHref, attr(ref, 'href')) ?? '', weight: w ? Number(attr(w, 'value')) : undefined };
    });
    const inTest = new Set(refs.map((r) => r.href));
    order = [...refs, ...order.filter((o) => !inTest.has(o.href))];
  }
  const lom = manifest.getElementsByTagNameNS(LOM_NS, 'general')[0];
  const lomText = (name: string) =>
    squash(
      lom?.getElementsByTagNameNS(LOM_NS, name)[0]?.getElementsByTagNameNS(LOM_NS, 'string')[0]?.textContent ?? '',
    );
  title = squash(title) || lomText('title') || 'Imported assessment';

  const items: ReadItem[] = [];
  for (const { href, weight } of order) {
    const data = files[href];
    if (!data) {
      report.push({
        file: href,
        item: '',
        reason: 'the manifest names this file but the package does not hold it',
        imported: false,
      });
      continue;
    }
    let root: Element;
    try {
      root = parseXml(href, strFromU8(data));
    } catch (err) {
      report.push({ file: href, item: '', reason: (err as Error).message, imported: false });
      continue;
    }
    const read = readFile(href, root, weight, standardsOf(byHref.get(href)));
    items.push(...read.items);
    report.push(...read.report);
  }
  if (itemResources.length === 0 && order.length === 0)
    throw new QtiPackageError(
      'The manifest lists no QTI items (resources of type imsqti_item_xmlv3p0 or imsqti_item_xmlv2p1/2p2)',
    );
  return { title, description: lomText('description'), items, report };
}

function readFile(
  file: string,
  root: Element,
  weight: number | undefined,
  standards: QtiStandard[],
): { items: ReadItem[]; report: QtiReportEntry[] } {
  const item = root.getAttribute('identifier') ?? '';
  const outcome = readItem(root, weight);
  if ('skipped' in outcome) return { items: [], report: [{ file, item, reason: outcome.skipped, imported: false }] };
  return {
    items: [{ file, item, question: { ...outcome.question, standards } }],
    report: outcome.notes.map((reason) => ({ file, item, reason, imported: true })),
  };
}

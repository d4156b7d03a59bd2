// A local HTTP server on 127.0.0.1 that speaks the OpenAI chat completions API, scripted per
// test: each request takes the next scripted reply (the last one repeats). Records request bodies.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON error body, or the assistant message content for 200. */
  error?: { message: string; type?: string; code?: string };
  content?: string | null;
  refusal?: string;
}

export interface FakeOpenAi {
  url: string;
  // Request bodies as sent by the SDK.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  requests: any[];
  script(...replies: (ScriptedReply | ((body: unknown) => ScriptedReply))[]): void;
  stop(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let replies: (ScriptedReply | ((body: unknown) => ScriptedReply))[] = [];
  let next = 0;
  const requests: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      requests.push(body);
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const entry = replies[Math.min(next++, replies.length - 1)];
      const reply = typeof entry === 'function' ? entry(body) : (entry ?? { content: '{}' });
      const status = reply.status ?? 200;
      const headers = { 'content-type': 'application/json', ...reply.headers };
      if (status !== 200) {
        res
          .writeHead(status, headers)
          .end(JSON.stringify({ error: { type: null, code: null, param: null, ...reply.error } }));
        return;
      }
      res.writeHead(200, headers).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: reply.content ?? null, refusal: reply.refusal ?? null },
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...r) {
      replies = r;
      next = 0;
      requests.length = 0;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A model answer with `n` valid questions of `type`, numbered from `from`. */
export function questionsJson(n: number, type = 'multiple_choice', from = 1): string {
  return JSON.stringify({
    questions: Array.from({ length: n }, (_, i) => item(type, from + i)),
  });
}

export function item(type: string, k: number) {
  if (type === 'true_false')
    return {
      questionText: `Statement ${k} about plants is true.`,
      questionType: type,
      options: ['True', 'False'],
      correctAnswer: k % 2 ? 'True' : 'False',
    };
  if (type === 'short_answer')
    return {
      questionText: `Fill in the blank ${k}: plants make _____.`,
      questionType: type,
      options: [],
      correctAnswer: 'glucose',
    };
  return {
    questionText: `Question ${k}: what do plants release?`,
    questionType: 'multiple_choice',
    options: ['oxygen', 'nitrogen', 'helium', 'argon'],
    correctAnswer: 'oxygen',
  };
}

export const QUOTA_ERROR: ScriptedReply = {
  status: 429,
  error: {
    message: 'You exceeded your current quota, please check your plan and billing details.',
    type: 'insufficient_quota',
    code: 'insufficient_quota',
  },
};
export const RATE_LIMITED: ScriptedReply = {
  status: 429,
  headers: { 'retry-after-ms': '5' },
  error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
};

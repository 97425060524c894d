import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BotCheckClient } from '../../src/botcheck/index.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { useJsonAnswerServer } from '../core/local-servers.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';

// The Web build (dist/web, what Workers and edge bundlers get) is built with the schema
// descriptions left out (src/core/schema-docs.ts): its schemas must accept and refuse exactly
// what the Node build's do, and only the OpenAPI document (Node build) carries the words.

const answers = useJsonAnswerServer();
beforeAll(() => ensureBuilt(), 180_000);

type Client = Pick<BotCheckClient, 'getResult' | 'close'>;
type ClientClass = new (options: { baseUrl: string; apiKey: string; maxRetries: number }) => Client;

async function webClientClass(): Promise<ClientClass> {
  const entry = await import(pathToFileURL(join(ROOT, 'dist/web/botcheck.js')).href);
  return entry.BotCheckClient as ClientClass;
}

const ID = '0b8f3c52-7d1e-4f6a-9b2c-3d4e5f6a7b8c';
const valid = {
  verificationId: ID,
  verificationPassed: true,
  score: 0.1,
  decisionType: 'STANDARD',
  decisionAction: 'NO_ACTION',
  verificationFinishedAt: '2026-03-01T10:15:30.123Z',
  resultExpiresAt: '2026-03-01T10:30:30+01:00',
};

/** What a client's getResult makes of `body`: the fields read, or the error's class and message. */
async function readWith(client: Client, body: Record<string, unknown>): Promise<unknown> {
  for (const key of Object.keys(answers.body)) delete answers.body[key];
  Object.assign(answers.body, body);
  try {
    const result = await client.getResult(ID);
    return { ok: true, decisionType: result.decisionType, decisionAction: result.decisionAction };
  } catch (error) {
    return { ok: false, name: (error as Error).name, message: (error as Error).message };
  }
}

describe('the Web build reads a result exactly as the Node build does, without the schema descriptions', () => {
  const bodies: Record<string, Record<string, unknown>> = {
    'a known decision type': valid,
    'a decision type and action added later': {
      ...valid,
      decisionType: 'NEW_TYPE',
      decisionAction: 'TARPIT',
    },
    'a decision type that is not a string': { ...valid, decisionType: 5 },
    'a decision action that is an object': { ...valid, decisionAction: { toString: 'BLOCK' } },
    'a timestamp without a zone': { ...valid, verificationFinishedAt: '2026-03-01T10:15:30.123' },
    'a timestamp that is not one': { ...valid, resultExpiresAt: 'tomorrow' },
    'a timestamp with an hour 24 offset': { ...valid, resultExpiresAt: '2026-03-01T10:30:30+24:00' },
    'a score above 1': { ...valid, score: 1.5 },
  };

  for (const [name, body] of Object.entries(bodies)) {
    it(`same answer for ${name}`, async () => {
      const Web = await webClientClass();
      const options = { baseUrl: answers.url(), apiKey: 'ak_demo_project', maxRetries: 0 };
      const node = new BotCheckClient(options);
      const web = new Web(options);
      try {
        const expected = await readWith(node, body);
        expect(await readWith(web, body)).toEqual(expected);
      } finally {
        await Promise.all([node.close(), web.close()]);
      }
    });
  }

  it('keeps an unknown decision type and refuses a non-string one (the cases above are not all alike)', async () => {
    const web = new (await webClientClass())({
      baseUrl: answers.url(),
      apiKey: 'ak_demo_project',
      maxRetries: 0,
    });
    try {
      expect(await readWith(web, bodies['a decision type and action added later'] ?? {})).toEqual({
        ok: true,
        decisionType: 'NEW_TYPE',
        decisionAction: 'TARPIT',
      });
      expect(await readWith(web, bodies['a decision type that is not a string'] ?? {})).toMatchObject({
        ok: false,
        name: 'MalformedResponseError',
      });
    } finally {
      await web.close();
    }
  });

  it('carries no description of the bot-check schemas, which the OpenAPI document keeps', () => {
    const words = 'Overall pass/fail verdict';
    const dir = join(ROOT, 'dist/web');
    const carrying = readdirSync(dir).filter(
      (file) => file.endsWith('.js') && readFileSync(join(dir, file), 'utf8').includes(words),
    );
    expect(carrying).toEqual([]);
    expect(JSON.stringify(buildOpenApiDocument())).toContain(words);
  });
});

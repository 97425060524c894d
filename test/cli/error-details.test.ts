import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugDetails, describeError } from '../../src/cli/error-line.js';
import { UnprocessableEntityError } from '../../src/core/errors/error-classes.js';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { lines, runBin } from '../helpers/run-bin.js';

// Issue 15 item 5 (CLI half): a 422 names each failing {path, message}; the one-line error shows
// them (bounded, escaped) and `--debug` adds every one of them and the whole body, so nothing the
// server said is lost. Runs of the built bin/svc.js against --sandbox and a hostile local server.

// C0, C1 and OSC sequences a hostile body may carry; none may reach the terminal raw.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const ERRORS = 25;
const hostileErrors = Array.from({ length: ERRORS }, (_, i) => ({
  path: i === 1 ? 'items.1.\u009b2Jname' : `items.${i}.rawValue`,
  message: i === 0 ? 'bad \u001b]0;pwned\u0007 value' : `bad value ${i}`,
}));

let hostile: Server;
let hostileUrl: string;

beforeAll(async () => {
  ensureBuilt();
  hostile = createServer((_req, res) => {
    res.writeHead(422, { 'content-type': 'application/problem+json', 'request-id': 'req_hostile_1' });
    res.end(
      JSON.stringify({
        status: 422,
        title: 'Unprocessable Entity',
        detail: 'Invalid',
        errors: hostileErrors,
      }),
    );
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
}, 180_000);
afterAll(() => new Promise<void>((resolve) => hostile.close(() => resolve())));

describe('svc validate GB 136695976 --provider VIES (sandbox): the 422 names the field and the reason', () => {
  const args = ['--sandbox', 'validate', 'GB', '136695976', '--provider', 'VIES'];

  it('one line with {path, message}, exit 1', async () => {
    const run = await runBin(args);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'svc: 422 Unprocessable Entity: POST /taxvalidation/v1/validations (Invalid validation request: preferredProvider: VIES cannot validate IDs of GB)',
    ]);
  });

  it('--debug: the same line, then each error, the request id and the whole body', async () => {
    const run = await runBin(['--debug', ...args]);
    expect(run.code).toBe(1);
    const err = lines(run.stderr);
    expect(err).toContain(
      'svc: 422 Unprocessable Entity: POST /taxvalidation/v1/validations (Invalid validation request: preferredProvider: VIES cannot validate IDs of GB)',
    );
    expect(err).toContain('[debug] errors[0] preferredProvider: VIES cannot validate IDs of GB');
    expect(err).toContain('[debug] request-id: req_000001');
    const body = err.find((l) => l.startsWith('[debug] response body: '));
    expect(JSON.parse(body?.slice('[debug] response body: '.length) ?? '')).toMatchObject({
      status: 422,
      errors: [{ path: 'preferredProvider', message: 'VIES cannot validate IDs of GB' }],
    });
  });
});

describe('a hostile 422 with 25 errors and escape sequences: bounded and escaped, nothing lost with --debug', () => {
  const args = () => [
    '--base-url',
    hostileUrl,
    '--api-key',
    DEMO.projectKey,
    '--max-retries',
    '0',
    'validate',
    'DE',
    '1',
  ];

  it('one bounded line: the first ten errors escaped, then how many more', async () => {
    const run = await runBin(args());
    expect(run.code).toBe(1);
    const [line, ...rest] = lines(run.stderr);
    expect(rest).toEqual([]);
    expect(line).toContain('items.0.rawValue: bad \\u001b]0;pwned\\u0007 value');
    expect(line).toContain('items.1.\\u009b2Jname: bad value 1');
    expect(line).toContain('items.9.rawValue: bad value 9');
    expect(line).not.toContain('items.10.rawValue');
    expect(line).toContain('(and 15 more)');
    expect(line?.length).toBeLessThan(1000);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });

  it('--debug lists all 25, escaped, and the body', async () => {
    const run = await runBin(['--debug', ...args()]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    const err = lines(run.stderr);
    for (let i = 0; i < ERRORS; i++) {
      expect(err.some((l) => l.startsWith(`[debug] errors[${i}] items.${i}.`))).toBe(true);
    }
    expect(err).toContain('[debug] errors[24] items.24.rawValue: bad value 24');
    expect(err).toContain('[debug] request-id: req_hostile_1');
    expect(err.some((l) => l.startsWith('[debug] response body: {') && l.includes('bad value 24'))).toBe(
      true,
    );
  });
});

describe('the CLI line keeps the list even when an error carries its own message', () => {
  const init = {
    status: 422,
    method: 'POST',
    path: '/taxvalidation/v1/validations',
    body: { errors: [{ path: 'countryCode', message: 'unknown country' }] },
  };

  it('appended once to a message without it', () => {
    const { code, line } = describeError(new UnprocessableEntityError(init, 'rejected by the server'));
    expect(code).toBe(1);
    expect(line).toBe('rejected by the server (countryCode: unknown country)');
  });

  it('not repeated when the library message has it', () => {
    const { line } = describeError(
      new UnprocessableEntityError({ ...init, detail: 'countryCode: unknown country' }),
    );
    expect(line.match(/countryCode: unknown country/g)).toHaveLength(1);
  });

  it('debugDetails redacts keys the server echoed', () => {
    const error = new UnprocessableEntityError({
      ...init,
      body: { errors: [{ path: 'apiKey', message: `bad key ${DEMO.projectKey}_0123456789abcdef` }] },
    });
    const details = debugDetails(error, [`${DEMO.projectKey}_0123456789abcdef`]).join('\n');
    expect(details).toContain('errors[0] apiKey: bad key');
    expect(details).not.toContain('0123456789abcdef');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';
import {
  exeMissing,
  exeSvc,
  nodeSvc,
  type SvcCommand,
  useWinePrefix,
  WINE_TEST_TIMEOUT,
  wineMissing,
  winPath,
} from '../helpers/windows.js';

// #41 item 2 on Windows: the built CLI under Windows Node, and svc.exe, trust a company CA given
// with --ca-file or NODE_EXTRA_CA_CERTS (read by Node at start), and refuse without it in words.

const server = useReferenceServer();
const wine = useWinePrefix();
let front: TlsFront;

beforeAll(async () => {
  ensureBuilt();
  front = await startTlsFront(server().url);
});
afterAll(async () => {
  await front?.close();
});

function trustSuite(command: () => SvcCommand) {
  // 127.0.0.1, which the certificate names too.
  const args = () => [
    '--base-url',
    `https://127.0.0.1:${front.port}`,
    '-o',
    'json',
    'validate',
    'DE',
    '136695976',
  ];
  const key = { SVC_API_KEY: DEMO.projectKey };

  it(
    'refused in words without the CA',
    async () => {
      const run = await wine().svc(command(), args(), { env: key });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^svc: certificate of 127\.0\.0\.1:\d+ not trusted .*add your CA with --ca-file or NODE_EXTRA_CA_CERTS/,
      );
    },
    WINE_TEST_TIMEOUT,
  );
  it(
    'accepted with --ca-file (a Windows path) and with NODE_EXTRA_CA_CERTS',
    async () => {
      const flag = await wine().svc(command(), ['--ca-file', winPath(TEST_TLS.caFile), ...args()], {
        env: key,
      });
      expect(flag.code, flag.stderr).toBe(0);
      expect(JSON.parse(flag.stdout)).toMatchObject({ status: 'COMPLETED' });
      const extra = await wine().svc(command(), args(), {
        env: { ...key, NODE_EXTRA_CA_CERTS: winPath(TEST_TLS.caFile) },
      });
      expect(extra.code, extra.stderr).toBe(0);
    },
    WINE_TEST_TIMEOUT,
  );
}

describe.skipIf(wineMissing)('Windows Node trusts the CA it is given (bin/svc.js)', () =>
  trustSuite(nodeSvc),
);
describe.skipIf(wineMissing || exeMissing)('svc.exe trusts the CA it is given', () =>
  trustSuite(() => exeSvc()),
);

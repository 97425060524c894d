import { TEST_VERIFICATION_IDS } from './botcheck/test-ids.js';
import { SvcClient } from './client.js';
import { resolvedOptions } from './client-env.js';
import { proxyOfClient } from './client-network.js';
import type { SvcClientOptions } from './client-options.js';
import type { ApiInterface } from './core/credentials.js';
import { isApiError } from './core/errors/error-classes.js';
import {
  PAYMENT_REQUIRED_CAUSES,
  type PaymentRequiredCause,
  paymentRequiredCauseOf,
} from './core/problem-types.js';
import { proxyFaultOf } from './core/transport/proxy-errors.js';

/** What the probe of one API says about the configured key. */
export type KeyVerdict =
  /** The API answered as it does for a key it accepts. */
  | 'accepted'
  /** No key was sent (401; 403 on the bot-check APIs when none is configured). */
  | 'missing'
  /** 402: the key is known, but the project is locked or its plan lacks this API. */
  | 'plan'
  /** 403: the key is unknown, expired, or of a kind this API does not take. */
  | 'invalid'
  /** No HTTP answer from the base URL (connection refused, DNS, timeout), or the proxy failed (see `proxyAnswered`). */
  | 'unreachable'
  /** An answer the probe does not expect (e.g. 5xx, or 404 on the audit log). */
  | 'unexpected';

/** The outcome of probing one API. */
export interface ApiDiagnosis {
  api: ApiInterface;
  /** The read-only request that was made, e.g. `GET /platform/v1/events?pageSize=1`. */
  probe: string;
  /** Whether a key is configured for this API (its own or the shared `apiKey`). */
  keyConfigured: boolean;
  /** true when the base URL gave an HTTP answer. */
  reachable: boolean;
  /** HTTP status of the answer; null when there was none. */
  status: number | null;
  /** The proxy the probe went through (`http://host:port`, never its user name or password); null when direct. */
  proxy: string | null;
  /** Through a proxy: false when the proxy could not be reached, else true (it answered, or refused); null when direct. */
  proxyAnswered: boolean | null;
  key: KeyVerdict;
  /** The verdict in words. */
  explanation: string;
  /** true only when `key` is 'accepted'. */
  ok: boolean;
  /** For a 402: the cause its problem `type` names (locked project, feature not in the plan, plan limit); absent otherwise or when the server names none. */
  paymentRequiredCause?: PaymentRequiredCause;
}

/** The result of {@link diagnose}. */
export interface Diagnosis {
  /** true when every API accepted its key. */
  ok: boolean;
  apis: ApiDiagnosis[];
}

/** Options of {@link diagnose}: the client options to check, plus a signal. */
export interface DiagnoseOptions extends SvcClientOptions {
  /** Cancels the probes. */
  signal?: AbortSignal;
}

// An id no result can have: the API answers 404 when it accepts the key, and nothing is created.
const NO_SUCH_RESULT = 'valres_svc-doctor-probe-does-not-exist';

interface Probe {
  api: ApiInterface;
  probe: string;
  /** Whether a 404 answer means the key was accepted (the probe asks for something that cannot exist). */
  notFoundIsAccepted: boolean;
  run(client: SvcClient, signal: AbortSignal | undefined): Promise<unknown>;
}

const PROBES: readonly Probe[] = [
  {
    api: 'tax',
    probe: `GET /taxvalidation/v1/validation-results/${NO_SUCH_RESULT}`,
    notFoundIsAccepted: true,
    run: (c, signal) => c.tax.getResult(NO_SUCH_RESULT, { ...(signal && { signal }) }),
  },
  {
    api: 'audit',
    probe: 'GET /platform/v1/events?pageSize=1',
    notFoundIsAccepted: false,
    run: (c, signal) => c.audit.listEvents({ pageSize: 1 }, { ...(signal && { signal }) }),
  },
  {
    // The documented test id that never exists: 404 with an accepted key, and nothing is consumed.
    api: 'captcha',
    probe: `GET /captcha/v2/verifications/${TEST_VERIFICATION_IDS.notFound}/results`,
    notFoundIsAccepted: true,
    run: (c, signal) => c.botCheck.getResult(TEST_VERIFICATION_IDS.notFound, { ...(signal && { signal }) }),
  },
  {
    api: 'legacy',
    probe: `GET /verifications/${TEST_VERIFICATION_IDS.notFound}/assessments`,
    notFoundIsAccepted: true,
    run: (c, signal) =>
      c.legacyBotCheck.getAssessment(TEST_VERIFICATION_IDS.notFound, { ...(signal && { signal }) }),
  },
];

function verdict(
  probe: Probe,
  keyConfigured: boolean,
  status: number,
  cause: PaymentRequiredCause | undefined,
): Pick<ApiDiagnosis, 'key' | 'explanation'> {
  if (status >= 200 && status < 300) return { key: 'accepted', explanation: 'key accepted' };
  if (status === 404 && probe.notFoundIsAccepted)
    return { key: 'accepted', explanation: 'key accepted (the probe asks for an id that does not exist)' };
  if (status === 401 || (status === 403 && !keyConfigured))
    return { key: 'missing', explanation: `no API key configured for this API (${status})` };
  if (status === 402 && cause)
    return { key: 'plan', explanation: `key known, but ${PAYMENT_REQUIRED_CAUSES[cause]} (402 ${cause})` };
  if (status === 402)
    return {
      key: 'plan',
      explanation: 'key known, but the project is locked or its plan does not include this API (402)',
    };
  if (status === 403)
    return {
      key: 'invalid',
      explanation: 'key refused: unknown, expired, or not a key this API takes (403)',
    };
  return {
    key: 'unexpected',
    explanation: `unexpected answer ${status}: is the base URL the service's?`,
  };
}

/** What an unreachable probe says, telling the proxy's failure from the base URL's. */
function unreachableWords(error: unknown, proxy: string | null): string {
  const reason = error instanceof Error ? error.message : String(error);
  const fault = proxyFaultOf(error);
  if (proxy === null) return `no answer from the base URL: ${reason}`;
  if (fault === 'unreachable') return `the proxy does not answer: ${reason}`;
  if (fault === 'refused') return `the proxy refused the request: ${reason}`;
  return `no answer from the base URL through the proxy: ${reason}`;
}

async function runProbe(
  client: SvcClient,
  probe: Probe,
  proxy: string | null,
  signal?: AbortSignal,
): Promise<ApiDiagnosis> {
  const keyConfigured = client.hasKey(probe.api);
  const base = {
    api: probe.api,
    probe: probe.probe,
    keyConfigured,
    proxy,
    proxyAnswered: proxy ? true : null,
  };
  let status: number;
  let cause: PaymentRequiredCause | undefined;
  try {
    await probe.run(client, signal);
    status = 200;
  } catch (error) {
    if (!isApiError(error)) {
      return {
        ...base,
        ...(proxy && proxyFaultOf(error) === 'unreachable' && { proxyAnswered: false }),
        reachable: false,
        status: null,
        key: 'unreachable',
        explanation: unreachableWords(error, proxy),
        ok: false,
      };
    }
    status = error.status;
    cause = status === 402 ? paymentRequiredCauseOf(error.body) : undefined;
  }
  const { key, explanation } = verdict(probe, keyConfigured, status, cause);
  return {
    ...base,
    reachable: true,
    status,
    key,
    explanation,
    ok: key === 'accepted',
    ...(cause && { paymentRequiredCause: cause }),
  };
}

/**
 * Checks, per API (tax, audit, captcha, legacy), whether the base URL answers and whether the
 * configured key is accepted, using only reads that change nothing on the service: a result id and
 * a bot-check test id that cannot exist (404 means the key was accepted) and one page of the audit
 * log. Probes run in parallel, without retries (`maxRetries` 0 unless given), through the proxy
 * the client would use (each diagnosis names it, and tells a proxy that does not answer from a
 * base URL that does not). Never throws for service errors; a bad `baseUrl` or `proxy` throws as
 * `new SvcClient` does.
 *
 * @example
 * const report = await diagnose({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'ak_demo_project' });
 * for (const api of report.apis) console.log(api.api, api.key, api.explanation);
 */
export async function diagnose(options: DiagnoseOptions = {}): Promise<Diagnosis> {
  const { signal, ...clientOptions } = options;
  const client = new SvcClient({ maxRetries: 0, ...clientOptions });
  const through = proxyOfClient(clientOptions, resolvedOptions(clientOptions), client.http.settings.baseUrl);
  const proxy = through ? `${through.protocol}//${through.host}` : null;
  try {
    const apis = await Promise.all(PROBES.map((p) => runProbe(client, p, proxy, signal)));
    return { ok: apis.every((a) => a.ok), apis };
  } finally {
    await client.close();
  }
}

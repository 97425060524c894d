import type { LegacyAssessment, VerificationResult } from '../../botcheck/schemas.js';
import type { StoredVerification } from './store.js';

/** Request metadata of a verification; emptied in minimal-data mode. */
const SAMPLE_METADATA = {
  origin: 'https://www.example.com/contact',
  ipAddress: '203.0.113.24',
  countryCode: 'DE',
  deviceFamily: 'Desktop',
  operatingSystem: 'Windows 11',
  browser: 'Firefox 128.0',
};

function metadata(minimal: boolean) {
  if (!minimal) return { ...SAMPLE_METADATA };
  return { origin: '', ipAddress: '', countryCode: '', deviceFamily: '', operatingSystem: '', browser: '' };
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** Legacy timestamp: UTC without a zone suffix, with fractional seconds (`2026-03-01T10:15:30.123`). */
export function legacyTimestamp(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString().slice(0, -1);
}

/** The current-API result (reference 2.5) of a fetched verification. */
export function currentResultOf(item: StoredVerification): VerificationResult {
  const s = item.settings;
  const { countryCode, ...rest } = metadata(s.minimalDataMode);
  return {
    captchaId: item.captchaId,
    verificationId: item.verificationId,
    verificationPassed: s.passed,
    score: item.score,
    decisionType: s.decisionType,
    decisionAction: s.decisionAction,
    gatewayFailoverActive: item.gatewayFailoverActive,
    riskScoringEnabled: true,
    minimalDataModeEnabled: s.minimalDataMode,
    origin: rest.origin,
    ipAddress: rest.ipAddress,
    countryCode,
    deviceFamily: rest.deviceFamily,
    operatingSystem: rest.operatingSystem,
    browser: rest.browser,
    verificationStartedAt: iso(item.startedAt),
    verificationFinishedAt: iso(item.finishedAt),
    resultExpiresAt: iso(item.finishedAt === undefined ? undefined : item.finishedAt + s.validityMs),
    resultFirstFetchedAt: iso(item.firstFetchedAt),
    resultLastFetchedAt: iso(item.lastFetchedAt),
  };
}

/** The legacy assessment (reference 2.6) of a fetched verification. */
export function legacyAssessmentOf(item: StoredVerification): LegacyAssessment {
  const { countryCode: _unused, ...meta } = metadata(item.settings.minimalDataMode);
  return {
    captchaId: item.captchaId,
    verificationId: item.verificationId,
    verificationPassed: item.settings.passed,
    score: item.score,
    reason: item.reason,
    mode: item.settings.mode,
    ...meta,
    creationTimestamp: legacyTimestamp(item.startedAt),
    releaseTimestamp: legacyTimestamp(item.finishedAt),
    retrievalTimestamp: legacyTimestamp(item.lastFetchedAt),
  };
}

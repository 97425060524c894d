import type { KnownProvider } from '../../tax/enums.js';
import { normalizeTaxId, registryFor } from '../../tax/precheck/index.js';
import type { ValidationRequest } from '../../tax/request-schemas.js';
import type { ProblemIssue } from '../problem.js';

const EU = new Set(
  'AT BE BG CY CZ DE DK EE EL GR ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

/** Which providers can answer for a country (BZST: foreign EU IDs, for German requesters). */
function canServe(provider: KnownProvider, countryCode: string, requesterVatId: string | undefined): boolean {
  if (provider === 'BZST')
    return EU.has(countryCode) && countryCode !== 'DE' && isGermanRequester(requesterVatId);
  return registryFor(countryCode) === provider;
}

function isGermanRequester(requesterVatId: string | undefined): boolean {
  return requesterVatId !== undefined && /^DE\d{9}$/.test(normalizeTaxId(requesterVatId));
}

/**
 * The registry for a request: the pinned one when it can serve the country (else a 422 issue);
 * BZST for a German requester checking a foreign EU ID; otherwise the country's registry
 * (null: no registry, NOT_SUPPORTED).
 */
export function routeProvider(
  countryCode: string,
  requesterVatId: string | undefined,
  pinned: KnownProvider | undefined,
  path: string,
): { provider: KnownProvider | null; issue?: ProblemIssue } {
  if (pinned) {
    if (canServe(pinned, countryCode, requesterVatId)) return { provider: pinned };
    const why =
      pinned === 'BZST'
        ? 'BZST confirms only non-German EU IDs for a German requester (requesterVatId DE...)'
        : `${pinned} cannot validate IDs of ${countryCode}`;
    return { provider: null, issue: { path, message: why } };
  }
  if (EU.has(countryCode) && countryCode !== 'DE' && isGermanRequester(requesterVatId))
    return { provider: 'BZST' };
  return { provider: registryFor(countryCode) };
}

/** A request that passed validation, with its registry decided. */
export interface AcceptedItem {
  body: ValidationRequest;
  provider: KnownProvider | null;
}

/** Routes one request; `issue` (path under `pathPrefix`) when its pinned provider cannot serve the country. */
export function routeItem(
  body: ValidationRequest,
  pathPrefix: string,
): { item: AcceptedItem; issue?: ProblemIssue } {
  const { provider, issue } = routeProvider(
    body.countryCode,
    body.requesterVatId,
    body.preferredProvider,
    `${pathPrefix}preferredProvider`,
  );
  return issue ? { item: { body, provider }, issue } : { item: { body, provider } };
}

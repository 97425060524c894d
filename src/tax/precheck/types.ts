/** Outcome of the offline pre-check. Only `OK` means the value may be sent to a registry. */
export type PrecheckCode = 'OK' | 'LENGTH' | 'FORMAT' | 'CHECKSUM' | 'UNSUPPORTED_COUNTRY';

/** What the offline pre-check found: the canonical value when it passes, else the code and a message. */
export interface PrecheckResult {
  /** true only when code is 'OK' */
  valid: boolean;
  code: PrecheckCode;
  /** rawValue after {@link normalizeTaxId}: full-width → ASCII, separators and dashes removed, upper-cased */
  normalized: string;
  /** canonical registry form when valid; null when not valid */
  canonical: string | null;
}

/** The registry that can confirm a tax ID of a given country. */
export type Provider = 'VIES' | 'BZST' | 'HMRC' | 'SWISS_UID' | 'BRREG' | 'ABR' | 'NZBN';

/** What a country check decides; LENGTH and UNSUPPORTED_COUNTRY are settled before it runs. */
export type BodyCode = 'OK' | 'FORMAT' | 'CHECKSUM';

/** Per-country rule: how to get from the normalized value to the body, and how to check the body. */
export interface CountryRule {
  /** Prepended to the (padded) body to form the canonical value, e.g. 'EL' for Greece. */
  readonly canonicalPrefix: string;
  /**
   * Strips the country's value prefix at most once and applies legacy padding. Returns the input
   * unchanged when it does not apply, so that a doubled prefix reaches `check` and fails as FORMAT.
   */
  readonly toBody: (value: string) => string;
  readonly check: (body: string) => BodyCode;
}

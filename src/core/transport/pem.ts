import { SvcError } from '../errors/error-classes.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificate blocks of a text, each as one string. */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

/**
 * The `ca` option as a list of PEM certificates, checked: each text must hold at least one
 * `-----BEGIN CERTIFICATE-----` block.
 *
 * @throws {SvcError} code `config` for a text without a PEM certificate.
 */
export function caOption(ca: string | readonly string[] | undefined): string[] | undefined {
  if (ca === undefined) return undefined;
  const texts = typeof ca === 'string' ? [ca] : ca;
  const out: string[] = [];
  for (const [index, text] of texts.entries()) {
    const found = typeof text === 'string' ? pemCertificates(text) : [];
    if (found.length === 0) {
      const which = typeof ca === 'string' ? 'ca' : `ca[${index}]`;
      throw new SvcError(
        `${which} holds no PEM certificate (-----BEGIN CERTIFICATE-----): pass the text of a PEM file, not its path`,
        'config',
      );
    }
    out.push(...found);
  }
  return out.length > 0 ? out : undefined;
}

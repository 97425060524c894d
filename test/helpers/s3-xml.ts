import type { ServerResponse } from 'node:http';

/** Escapes text for an XML element body or attribute value. */
export function xmlEscape(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );
}

/**
 * S3's error document (`<Error><Code>...</Code><Message>...</Message>...</Error>`), the shape the
 * S3 API reference documents for every error answer; `extra` adds elements such as `<Key>`.
 */
export function s3ErrorXml(code: string, message: string, extra: Record<string, string> = {}): string {
  const fields = Object.entries({ Code: code, Message: message, ...extra })
    .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${fields}</Error>`;
}

/** Ends `res` with an S3 error document and a request id, as S3 answers a refused request. */
export function sendS3Error(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
): void {
  const body = s3ErrorXml(code, message, extra);
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    'x-amz-request-id': 'S3TEST0000000000',
  });
  res.end(body);
}

import type { S3Client } from '@aws-sdk/client-s3';
import { redact, redactHeaders } from '../../core/redact.js';

interface WireRequest {
  method?: string;
  hostname?: string;
  path?: string;
  query?: Record<string, string | string[] | null>;
  headers?: Record<string, string>;
}

/**
 * `--debug` for S3: one line per request as signed (method, host, path, query and headers through
 * the project's one redaction: `Authorization`, `X-Amz-Security-Token` and a presigned query's
 * signature masked) and one per answer (status).
 */
export function s3Debug(client: S3Client, log: (line: string) => void): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as WireRequest;
      const query = Object.entries(request.query ?? {})
        .map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(',') : (value ?? '')}`)
        .join('&');
      const headers = redactHeaders(request.headers ?? {});
      log(
        redact(
          `s3 > ${request.method ?? '?'} ${request.hostname ?? ''}${request.path ?? ''}${query ? `?${query}` : ''} ${JSON.stringify(headers)}`,
        ),
      );
      const answer = await next(args);
      const status = (answer.response as { statusCode?: number } | undefined)?.statusCode;
      log(`s3 < ${status ?? '?'} ${request.method ?? '?'} ${request.path ?? ''}`);
      return answer;
    },
    { step: 'finalizeRequest', name: 'svcDebugLog', priority: 'low' },
  );
}

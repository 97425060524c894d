import type { OutgoingHttpHeaders } from 'node:http';

// The answers of Elasticsearch 8 and OpenSearch 2 that bulk-standin.ts gives, in their shapes:
// an error is `{"error":{"root_cause":[cause],...cause},"status":N}`, a bulk item error is
// `{"type","reason",...}` under the item's `error`.

/** Which product a bulk stand-in answers as. */
export type BulkFlavor = 'elasticsearch' | 'opensearch';

/** One answer: status, body (a string as is, anything else as JSON), extra headers. */
export interface BulkAnswer {
  status: number;
  body: unknown;
  headers?: OutgoingHttpHeaders;
}

/** A bulk item's error (`items[n].create.error`). */
export interface ItemError {
  type: string;
  reason: string;
  [field: string]: unknown;
}

interface FlavorNames {
  /** The exception of a full write queue: OpenSearch dropped the `es_` with the rename. */
  rejected: string;
  /** The exception of a document its mapping refuses (ES 8 renamed mapper_parsing_exception). */
  parsing: string;
  version: Record<string, string>;
  tagline: string;
}

const FLAVORS: Record<BulkFlavor, FlavorNames> = {
  elasticsearch: {
    rejected: 'es_rejected_execution_exception',
    parsing: 'document_parsing_exception',
    version: { number: '8.15.0', build_flavor: 'default', build_type: 'docker', lucene_version: '9.11.1' },
    tagline: 'You Know, for Search',
  },
  opensearch: {
    rejected: 'rejected_execution_exception',
    parsing: 'mapper_parsing_exception',
    version: { distribution: 'opensearch', number: '2.17.0', build_type: 'tar', lucene_version: '9.11.1' },
    tagline: 'The OpenSearch Project: https://opensearch.org/',
  },
};

/** A whole-request error in the products' shared shape. */
export function requestError(status: number, cause: ItemError, headers?: OutgoingHttpHeaders): BulkAnswer {
  return { status, body: { error: { root_cause: [cause], ...cause }, status }, ...(headers && { headers }) };
}

/** `GET /`: the cluster's name and version. */
export function clusterInfo(flavor: BulkFlavor): BulkAnswer {
  const names = FLAVORS[flavor];
  return {
    status: 200,
    body: {
      name: 'standin-0',
      cluster_name: 'bulk-standin',
      cluster_uuid: 'c0ffee00c0ffee00c0ffee',
      version: names.version,
      tagline: names.tagline,
    },
  };
}

/**
 * 401 of a request without valid credentials. Elasticsearch's security answers JSON and names
 * both schemes it takes; OpenSearch's security plugin answers the word `Unauthorized`.
 */
export function unauthenticated(flavor: BulkFlavor, reason: string): BulkAnswer {
  if (flavor === 'opensearch')
    return {
      status: 401,
      body: 'Unauthorized',
      headers: {
        'content-type': 'text/plain; charset=UTF-8',
        'www-authenticate': 'Basic realm="OpenSearch Security"',
      },
    };
  const challenges = ['Basic realm="security", charset="UTF-8"', 'ApiKey'];
  return requestError(
    401,
    { type: 'security_exception', reason, header: { 'WWW-Authenticate': challenges } },
    { 'www-authenticate': challenges },
  );
}

/** Whole-request 429: the coordinating node's write queue is full. */
export function overloaded(flavor: BulkFlavor, headers: OutgoingHttpHeaders): BulkAnswer {
  return requestError(
    429,
    { type: FLAVORS[flavor].rejected, reason: 'rejected execution of coordinating operation [write]' },
    headers,
  );
}

/** Whole-request 503: the cluster has no elected master, so writes are blocked. */
export function unavailable(headers: OutgoingHttpHeaders): BulkAnswer {
  return requestError(
    503,
    { type: 'cluster_block_exception', reason: 'blocked by: [SERVICE_UNAVAILABLE/2/no master];' },
    headers,
  );
}

/** An item the shard's write queue refused: transient, the same item may pass when sent again. */
export function itemRejected(flavor: BulkFlavor): ItemError {
  return {
    type: FLAVORS[flavor].rejected,
    reason:
      'rejected execution of primary operation [shard_detail=[standin][0]] on EsThreadPoolExecutor' +
      '[name = standin-0/write, queue capacity = 10000]',
  };
}

/**
 * A document its mapping refuses, as when a string reaches a `long` field: permanent for that
 * document. `field` is the document's first field and `value` its value (none for `{}`).
 */
export function itemUnparsable(
  flavor: BulkFlavor,
  id: string,
  source: string,
  field?: string,
  value?: unknown,
): ItemError {
  const type = FLAVORS[flavor].parsing;
  if (field === undefined)
    return { type, reason: `[1:1] failed to parse: no field to map in document '${id}'` };
  const preview = typeof value === 'string' ? value : JSON.stringify(value);
  const column = source.indexOf(':', source.indexOf(JSON.stringify(field))) + 2;
  const where = flavor === 'elasticsearch' ? `[1:${column}] ` : '';
  return {
    type,
    reason:
      `${where}failed to parse field [${field}] of type [long] in document with id '${id}'. ` +
      `Preview of field's value: '${preview}'`,
    caused_by: { type: 'illegal_argument_exception', reason: `For input string: "${preview}"` },
  };
}

/** A source line that is not a JSON object. */
export function itemMalformed(flavor: BulkFlavor, message: string): ItemError {
  return { type: FLAVORS[flavor].parsing, reason: `[1:1] failed to parse: ${message}` };
}

/** `create` of an id the index holds already. */
export function itemExists(index: string, uuid: string, id: string, version: number): ItemError {
  return {
    type: 'version_conflict_engine_exception',
    reason: `[${id}]: version conflict, document already exists (current version [${version}])`,
    index_uuid: uuid,
    shard: '0',
    index,
  };
}

/** 400 `illegal_argument_exception`, the answer to a body the bulk parser cannot read. */
export function illegalArgument(reason: string): BulkAnswer {
  return requestError(400, { type: 'illegal_argument_exception', reason });
}

import { type AuditOwner, ownerKey, templatesFor } from './templates.js';

/**
 * An immutable run of events of one owner, sorted newest first (`occurredAt` desc, then `id`
 * desc). Position 0 is the newest. Each admin call adds one segment; queries merge them.
 */
export interface Segment {
  /** Insertion sequence number; a cursor only sees segments up to its snapshot. */
  readonly seq: number;
  /** Owner key, e.g. `project:demo`. */
  readonly owner: string;
  readonly size: number;
  /** `occurredAt` in ms of position `p`. */
  occAt(p: number): number;
  idAt(p: number): string;
  /** The event as served. */
  eventAt(p: number): Record<string, unknown>;
}

/**
 * Sizes of consecutive groups of events that share one `occurredAt`, repeated. The large group
 * is longer than a default page, so page boundaries fall inside a run of equal timestamps.
 */
const GROUPS = [1, 1, 2, 1, 1, 3, 1, 1, 1, 2, 1, 1, 1, 1, 120];
const GROUP_STARTS: number[] = [];
let CYCLE = 0;
for (const size of GROUPS) {
  GROUP_STARTS.push(CYCLE);
  CYCLE += size;
}

/** Index of the timestamp group of position `p`. */
function groupOf(p: number): number {
  const cycle = Math.floor(p / CYCLE);
  const rest = p - cycle * CYCLE;
  let k = GROUP_STARTS.length - 1;
  while ((GROUP_STARTS[k] as number) > rest) k -= 1;
  return cycle * GROUPS.length + k;
}

/** A bijection on 32-bit integers, so distinct batch numbers give distinct id prefixes. */
export function permute32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit hash of three integers. */
export function hash32(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= Math.imul((b + 0x7f4a7c15) | 0, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f);
  h ^= Math.imul((c + 0x165667b1) | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex8 = (n: number) =>
  (BYTE_HEX[n >>> 24] as string) + BYTE_HEX[(n >>> 16) & 255] + BYTE_HEX[(n >>> 8) & 255] + BYTE_HEX[n & 255];

/**
 * `count` generated events spread over `[fromMs, toMs]`, computed on demand from their position:
 * a million events cost a few numbers of memory. Ids start with the batch tag and the
 * reversed position, so within the segment id order follows position and ties sort `id` desc.
 */
export class GeneratedSegment implements Segment {
  readonly owner: string;
  private readonly groups: number;
  private readonly span: number;
  private readonly tagHex: string;
  /** Neighbouring events often share a timestamp: keep the last formatted one. */
  private isoCache = { occ: Number.NaN, iso: '' };

  constructor(
    readonly seq: number,
    private readonly ownerOf: AuditOwner,
    readonly size: number,
    fromMs: number,
    private readonly toMs: number,
    /** 32-bit tag unique to the batch. */
    private readonly tag: number,
  ) {
    this.owner = ownerKey(ownerOf);
    this.groups = groupOf(size - 1) + 1;
    this.span = toMs - fromMs;
    this.tagHex = hex8(tag);
  }

  occAt(p: number): number {
    return this.toMs - Math.floor((groupOf(p) * this.span) / this.groups);
  }

  idAt(p: number): string {
    const lo = hex8(this.size - 1 - p);
    const h = hex8(hash32(this.tag, p, 0));
    const h2 = hex8(hash32(this.tag, p, 1));
    return `${this.tagHex}-${lo.slice(0, 4)}-${lo.slice(4)}-${h.slice(0, 4)}-${h2}${h.slice(4)}`;
  }

  private isoAt(p: number): string {
    const occ = this.occAt(p);
    if (occ !== this.isoCache.occ) this.isoCache = { occ, iso: new Date(occ).toISOString() };
    return this.isoCache.iso;
  }

  eventAt(p: number): Record<string, unknown> {
    const lo = this.size - 1 - p;
    const templates = templatesFor(this.ownerOf);
    let counter = 2;
    const template = templates[(lo + this.tag) % templates.length] as (typeof templates)[number];
    return template({
      owner: this.ownerOf,
      id: this.idAt(p),
      occurredAt: this.isoAt(p),
      bits: (n) => hash32(this.tag, lo, 1000 + n),
      hex: (length) => {
        let out = '';
        while (out.length < length) out += hex8(hash32(this.tag, lo, counter++));
        return out.slice(0, length);
      },
    });
  }
}

/** Compares two events newest first: `occurredAt` desc, then `id` desc. */
export function compareDesc(occA: number, idA: string, occB: number, idB: string): number {
  if (occA !== occB) return occB - occA;
  return idA < idB ? 1 : idA > idB ? -1 : 0;
}

/** Events given explicitly (admin `{events}`), kept exactly as given and sorted newest first. */
export class ExplicitSegment implements Segment {
  readonly size: number;
  private readonly rows: Array<{ occ: number; id: string; event: Record<string, unknown> }>;

  constructor(
    readonly seq: number,
    readonly owner: string,
    events: ReadonlyArray<Record<string, unknown>>,
  ) {
    this.rows = events
      .map((event) => ({ occ: Date.parse(String(event.occurredAt)), id: String(event.id), event }))
      .sort((a, b) => compareDesc(a.occ, a.id, b.occ, b.id));
    this.size = this.rows.length;
  }

  occAt(p: number): number {
    return (this.rows[p] as { occ: number }).occ;
  }

  idAt(p: number): string {
    return (this.rows[p] as { id: string }).id;
  }

  eventAt(p: number): Record<string, unknown> {
    return (this.rows[p] as { event: Record<string, unknown> }).event;
  }
}

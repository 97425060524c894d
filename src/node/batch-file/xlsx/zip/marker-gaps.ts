/**
 * Watches a byte stream, chunk by chunk, for a marker (such as `</row>`), also across chunk
 * boundaries. Each call returns whether the marker occurred and the longest stretch of bytes
 * without it so far (a reader that holds what lies between two markers holds at most that), and
 * how many times it occurred.
 */
export function markerGaps(
  marker: Buffer,
): (chunk: Buffer) => { found: boolean; longest: number; count: number } {
  let carry = Buffer.alloc(0);
  // Bytes since the end of the last marker (or the start), counted to the end of the last chunk.
  let since = 0;
  let longest = 0;
  let count = 0;
  return (chunk) => {
    const joined = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let at = joined.indexOf(marker);
    let last = -1;
    while (at !== -1) {
      // The carried bytes were counted in `since` already.
      const gap = last === -1 ? since - carry.length + at : at - (last + marker.length);
      if (gap > longest) longest = gap;
      last = at;
      count++;
      at = joined.indexOf(marker, at + marker.length);
    }
    since = last === -1 ? since + chunk.length : joined.length - (last + marker.length);
    if (since > longest) longest = since;
    carry = Buffer.from(
      joined.subarray(Math.max(joined.length - (marker.length - 1), last === -1 ? 0 : last + marker.length)),
    );
    return { found: count > 0, longest, count };
  };
}

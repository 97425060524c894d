/**
 * SHA-256 (FIPS 180-4) of a text's UTF-8 bytes, synchronous and in plain JavaScript, so it runs
 * the same on every runtime. The batch keys use it instead of Web Crypto's `subtle.digest`, whose
 * promise and thread-pool job cost Node about 10 to 15 us per call (a batch row's whole client CPU
 * is about 18 us); this takes about 1 us for a row's text. Not for secrets: no constant-time care.
 */

/** Int32 words throughout: a Uint32Array read above 2^31 gives a heap number, not a small integer. */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const H0 = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const utf8 = new TextEncoder();
/** The message buffer, reused and grown as needed (the hash is synchronous). */
let bytes = new Uint8Array(1024);
const W = new Int32Array(64);
const H = new Int32Array(8);

/**
 * The SHA-256 digest of `text` (its UTF-8 bytes): 8 big-endian words, as signed 32-bit integers
 * (`>>> 0` gives the unsigned value); the array is reused by the next call.
 */
export function sha256(text: string): Int32Array {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit; room for the padding's 1 + 8 bytes too.
  const room = text.length * 3 + 72;
  if (bytes.length < room) bytes = new Uint8Array(room * 2);
  const length = utf8.encodeInto(text, bytes).written;
  const blocks = Math.ceil((length + 9) / 64);
  const end = blocks * 64;
  bytes[length] = 0x80;
  bytes.fill(0, length + 1, end);
  const bits = length * 8;
  // The length in bits, big-endian, in the last 8 bytes (a JavaScript string is far below 2^53 bits).
  const high = Math.floor(bits / 0x100000000);
  bytes[end - 8] = high >>> 24;
  bytes[end - 7] = high >>> 16;
  bytes[end - 6] = high >>> 8;
  bytes[end - 5] = high;
  bytes[end - 4] = bits >>> 24;
  bytes[end - 3] = bits >>> 16;
  bytes[end - 2] = bits >>> 8;
  bytes[end - 1] = bits;
  H.set(H0);
  for (let offset = 0; offset < end; offset += 64) block(offset);
  return H;
}

/** One 64-byte block of the message at `offset` into the state H. */
function block(offset: number): void {
  const m = bytes;
  for (let t = 0; t < 16; t++) {
    const i = offset + t * 4;
    W[t] =
      ((m[i] as number) << 24) |
      ((m[i + 1] as number) << 16) |
      ((m[i + 2] as number) << 8) |
      (m[i + 3] as number);
  }
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15] as number;
    const w2 = W[t - 2] as number;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = ((W[t - 16] as number) + s0 + (W[t - 7] as number) + s1) | 0;
  }
  let a = H[0] as number;
  let b = H[1] as number;
  let c = H[2] as number;
  let d = H[3] as number;
  let e = H[4] as number;
  let f = H[5] as number;
  let g = H[6] as number;
  let h = H[7] as number;
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + (K[t] as number) + (W[t] as number)) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = ((H[0] as number) + a) | 0;
  H[1] = ((H[1] as number) + b) | 0;
  H[2] = ((H[2] as number) + c) | 0;
  H[3] = ((H[3] as number) + d) | 0;
  H[4] = ((H[4] as number) + e) | 0;
  H[5] = ((H[5] as number) + f) | 0;
  H[6] = ((H[6] as number) + g) | 0;
  H[7] = ((H[7] as number) + h) | 0;
}

/**
 * Deliberately naive re-implementations (straight transliterations of the published algorithms,
 * using digit arrays and Date) of the schemes whose checksum does not catch every single-digit
 * error. The mutation test compares the production code with these instead of expecting failure.
 * Input is the value without the VAT prefix (legacy short forms allowed).
 */

const nums = (s: string): number[] => [...s].map(Number);
const allDigits = (s: string): boolean => /^[0-9]+$/.test(s);
const dot = (ws: readonly number[], ds: readonly number[]): number =>
  ws.reduce((acc, w, i) => acc + w * ds[i]!, 0);
const mod = (a: number, m: number): number => ((a % m) + m) % m;

function realDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function bg(b: string): boolean {
  if (!allDigits(b)) return false;
  const d = nums(b);
  if (b.length === 9) {
    let r = dot([1, 2, 3, 4, 5, 6, 7, 8], d) % 11;
    if (r === 10) r = dot([3, 4, 5, 6, 7, 8, 9, 10], d) % 11;
    return r % 10 === d[8];
  }
  if (b.length !== 10) return false;
  const yy = Number(b.slice(0, 2));
  const mm = Number(b.slice(2, 4));
  const dd = Number(b.slice(4, 6));
  const [year, month] = mm > 40 ? [2000 + yy, mm - 40] : mm > 20 ? [1800 + yy, mm - 20] : [1900 + yy, mm];
  const egn = realDate(year, month, dd) && (dot([2, 4, 8, 5, 10, 9, 7, 3, 6], d) % 11) % 10 === d[9];
  const pnf = dot([21, 19, 17, 13, 11, 9, 7, 3, 1], d) % 10 === d[9];
  const other = (11 - (dot([4, 3, 2, 7, 6, 5, 4, 3, 2], d) % 11)) % 11 === d[9];
  return egn || pnf || other;
}

function cz(b: string): boolean {
  if (!allDigits(b)) return false;
  const d = nums(b);
  if (b.length === 8) {
    const check = mod(11 - dot([8, 7, 6, 5, 4, 3, 2], d), 11);
    return b[0] !== '9' && (check === 0 ? 1 : check % 10) === d[7];
  }
  if (b.length === 9 && b[0] === '6') {
    const s = dot([8, 7, 6, 5, 4, 3, 2], d.slice(1)) % 11;
    return mod(8 - mod(10 - s, 11), 10) === d[8];
  }
  if (b.length !== 9 && b.length !== 10) return false;
  const yy = Number(b.slice(0, 2));
  const mm = Number(b.slice(2, 4));
  const months = b.length === 10 ? [0, 20, 50, 70] : [0, 50];
  const offset = months.find((o) => mm - o >= 1 && mm - o <= 12);
  if (offset === undefined) return false;
  let year: number;
  if (b.length === 9) {
    if (yy >= 54 && yy < 80) return false;
    year = yy >= 80 ? 1800 + yy : 1900 + yy;
  } else {
    year = yy < 54 ? 2000 + yy : 1900 + yy;
  }
  if (!realDate(year, mm - offset, Number(b.slice(4, 6)))) return false;
  return b.length === 9 || (Number(b.slice(0, 9)) % 11) % 10 === d[9];
}

function el(b: string): boolean {
  const v = b.length === 8 ? '0' + b : b;
  if (v.length !== 9 || !allDigits(v)) return false;
  const d = nums(v);
  return (dot([256, 128, 64, 32, 16, 8, 4, 2], d) % 11) % 10 === d[8];
}

function lt(b: string): boolean {
  if (!allDigits(b) || (b.length !== 9 && b.length !== 12) || b[b.length - 2] !== '1') return false;
  const d = nums(b);
  const payload = d.slice(0, -1);
  let r =
    dot(
      payload.map((_, i) => 1 + (i % 9)),
      payload,
    ) % 11;
  if (r === 10) {
    r =
      dot(
        payload.map((_, i) => 1 + ((i + 2) % 9)),
        payload,
      ) % 11;
  }
  return r % 10 === d[d.length - 1];
}

function lv(b: string): boolean {
  if (b.length !== 11 || !allDigits(b)) return false;
  const d = nums(b);
  if (d[0]! > 3) return dot([9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1], d) % 11 === 3;
  if (/^3[2-9]/.test(b)) return true;
  const year = 1800 + d[6]! * 100 + Number(b.slice(4, 6));
  if (!realDate(year, Number(b.slice(2, 4)), Number(b.slice(0, 2)))) return false;
  return ((1 + dot([10, 5, 8, 4, 2, 1, 6, 3, 7, 9], d)) % 11) % 10 === d[10];
}

function nl(b: string): boolean {
  const m = /^([0-9]{1,9})B([0-9]{2})$/.exec(b);
  if (!m) return false;
  const num = m[1]!.padStart(9, '0');
  if (Number(num) === 0 || Number(m[2]) === 0) return false;
  const d = nums(num);
  const eleven = mod(dot([9, 8, 7, 6, 5, 4, 3, 2, -1], d), 11) === 0;
  const expanded = [...`NL${num}B${m[2]}`]
    .map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c))
    .join('');
  return eleven || BigInt(expanded) % 97n === 1n;
}

function pt(b: string): boolean {
  if (b.length !== 9 || !allDigits(b) || b[0] === '0') return false;
  const d = nums(b);
  const c = 11 - (dot([9, 8, 7, 6, 5, 4, 3, 2], d) % 11);
  return (c >= 10 ? 0 : c) === d[8];
}

function ro(b: string): boolean {
  if (b.length < 2 || b.length > 10 || !allDigits(b) || b[0] === '0') return false;
  const d = nums(b.slice(0, -1).padStart(9, '0'));
  return ((10 * dot([7, 5, 3, 2, 1, 7, 5, 3, 2], d)) % 11) % 10 === Number(b.at(-1));
}

function gb(b: string): boolean {
  if (/^(GD|HA)8888[0-9]{5}$/.test(b)) return true;
  if (/^GD[0-9]{3}$/.test(b)) return Number(b.slice(2)) < 500;
  if (/^HA[0-9]{3}$/.test(b)) return Number(b.slice(2)) >= 500;
  if (!/^([0-9]{9}|[0-9]{12})$/.test(b)) return false;
  const r = dot([8, 7, 6, 5, 4, 3, 2, 10, 1], nums(b.slice(0, 9))) % 97;
  return r === 0 || (r === 42 && Number(b.slice(0, 3)) >= 100);
}

function fr(b: string): boolean {
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  if (!/^[0-9A-HJ-NP-Z]{2}[0-9]{9}$/.test(b)) return false;
  const siren = b.slice(2);
  const luhn = [...siren]
    .reverse()
    .map(Number)
    .reduce((acc, x, i) => acc + (i % 2 === 1 ? (x * 2 > 9 ? x * 2 - 9 : x * 2) : x), 0);
  if (!siren.startsWith('000') && luhn % 10 !== 0) return false;
  if (/^[0-9]{2}/.test(b)) return Number(b.slice(0, 2)) === Number(BigInt(siren + '12') % 97n);
  const [i0, i1] = [alphabet.indexOf(b[0]!), alphabet.indexOf(b[1]!)];
  const c = i0 < 10 ? i0 * 24 + i1 - 10 : i0 * 34 + i1 - 100;
  return (Number(siren) + 1 + Math.floor(c / 11)) % 11 === c % 11;
}

export const REFERENCE: Readonly<Record<string, (body: string) => boolean>> = {
  BG: bg,
  CZ: cz,
  EL: el,
  GR: el,
  LT: lt,
  LV: lv,
  NL: nl,
  PT: pt,
  RO: ro,
  GB: gb,
  XI: gb,
  FR: fr,
};

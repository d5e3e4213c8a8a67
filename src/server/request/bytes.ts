// bytes.ts: the one byte type the server passes around: a Uint8Array over a plain ArrayBuffer, which
// Response, Bun.file and zlib take without a copy (a SharedArrayBuffer-backed view they would not).
export type Bytes = Uint8Array<ArrayBuffer>;

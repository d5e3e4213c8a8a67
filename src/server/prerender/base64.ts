// base64.ts: bytes as the text prerendered.json keeps them in, and back.
import type { Bytes } from "../request/responses.ts";

export const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
export const fromBase64 = (text: string): Bytes => new Uint8Array(Buffer.from(text, "base64"));

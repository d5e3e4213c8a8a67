// free-port.ts (brisk/test): a TCP port on 127.0.0.1 that nothing listens on, for a server a test starts.
export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = probe;
  probe.stop(true);
  return port;
}

// logger.ts: one JSON object per line on stdout, the format log collectors read without parsing rules.

export type LogRecord = Record<string, unknown> & { level: "info" | "warn" | "error"; msg: string };

export type Logger = (record: LogRecord) => void;

export const stdoutLogger: Logger = (record) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
};

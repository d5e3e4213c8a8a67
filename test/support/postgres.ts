// postgres.ts (test support): brisk/test's throwaway PostgreSQL cluster, for the framework's own tests.
export { startPostgres, type Postgres } from "brisk/test";

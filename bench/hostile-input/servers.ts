import { appServer } from 'bench/lib/bench-servers';

/** The service alone (bench/lib/bench-servers.ts): the hostile-input bench has no bare server. */
appServer().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});

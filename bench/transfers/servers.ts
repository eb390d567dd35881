import { runBenchServer } from 'bench/lib/bench-servers';

/** Bench servers (bench/lib/bench-servers.ts): `bare` inserts into bench_deposits; `app` is the service. */
runBenchServer('bench_deposits', 'transaction_id');

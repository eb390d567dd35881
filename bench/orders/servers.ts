import { runBenchServer } from 'bench/lib/bench-servers';

/** Bench servers (bench/lib/bench-servers.ts): `bare` inserts into bench_orders; `app` is the service. */
runBenchServer('bench_orders', 'id');

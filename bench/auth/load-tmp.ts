import { runLoad } from 'bench/lib/load';
const [port, n] = [Number(process.argv[2]), Number(process.argv[3])];
const authorization = require('fs').readFileSync('/tmp/speedprof/authz', 'utf8').trim();
runLoad({
  port,
  path: '/v1/webhooks/event-types',
  headers: { authorization },
  total: n,
  concurrency: 16,
}).then((r) => console.log(JSON.stringify({ rps: r.perSecond, st: r.statuses })));

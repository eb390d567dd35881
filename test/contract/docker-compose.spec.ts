import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateEnvironment } from 'src/core/config/environment';

/**
 * docker-compose.yml, parsed (Docker cannot run here): its `scale` profile is the set-up
 * test/foundation/many-processes.e2e-spec.ts runs, two API replicas and two workers on a Redis
 * Cluster of three masters and a PostgreSQL primary with a streaming replica; the default services
 * stay as they are.
 */
describe('docker-compose.yml, `scale` profile', () => {
  it('leaves the default services without a profile', () => {
    for (const name of ['postgres', 'redis', 'api', 'worker']) {
      expect(services[name].profiles).toBeUndefined();
    }
  });

  it('runs two API replicas and two workers, three cluster masters, their one-shot join and a replica', () => {
    expect(apis.map(([name]) => name)).toEqual(['api-1', 'api-2']);
    expect(workers.map(([name]) => name)).toEqual(['worker-1', 'worker-2']);
    expect(masters).toHaveLength(3);
    const join = commandOf(services['redis-cluster-init']);
    expect(join).toContain('redis-cli --cluster create');
    expect(join).toContain('--cluster-replicas 0');
    masters.forEach(([name]) => expect(join).toContain(name));
  });

  it('gives every API and worker the cluster’s three masters and the primary; the APIs the replica too', () => {
    const nodes = masters.map(([name]) => `${name}:6379`).join(',');
    for (const [name, service] of [...apis, ...workers]) {
      const env = service.environment!;
      expect({ name, nodes: env.REDIS_CLUSTER_NODES, inProcess: env.WORKER_IN_PROCESS }).toEqual({
        name,
        nodes,
        inProcess: 'false',
      });
      expect(new URL(env.DATABASE_URL).hostname).toBe('postgres');
      // The environment the service starts with passes the service's own validation.
      expect(() => validateEnvironment(env)).not.toThrow();
    }
    for (const [, service] of apis) {
      const replicas = service.environment!.DATABASE_REPLICA_URLS.split(',');
      expect(replicas.map((url) => new URL(url).hostname)).toEqual(['postgres-replica']);
      expect(replicas.every((url) => /^postgres(ql)?:\/\//.test(url))).toBe(true);
    }
  });

  it('makes postgres-replica a streaming replica of postgres, which allows replication connections', () => {
    const replica = commandOf(services['postgres-replica']);
    expect(replica).toMatch(/pg_basebackup --host=postgres /);
    expect(replica).toContain('--wal-method=stream');
    // standby.signal and primary_conninfo: it starts as a standby streaming from the primary.
    expect(replica).toContain('--write-recovery-conf');
    expect(services['postgres-replica'].depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(commandOf(services.postgres)).toContain('hba_file=/etc/postgresql/pg_hba.conf');
    const hba = readFileSync(join(__dirname, '..', '..', 'docker', 'postgres', 'pg_hba.conf'), 'utf8');
    expect(hba).toMatch(/^host\s+replication\s+all\s+all\s+trust$/m);
  });

  it('starts the APIs once the cluster is joined and the replica is up, the workers once api-1 migrated', () => {
    expect(services['api-1'].depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      'postgres-replica': { condition: 'service_healthy' },
      'redis-cluster-init': { condition: 'service_completed_successfully' },
    });
    expect(services['api-2'].depends_on).toEqual({ 'api-1': { condition: 'service_healthy' } });
    for (const [, worker] of workers) {
      expect(worker.depends_on).toEqual({
        'api-1': { condition: 'service_healthy' },
        'redis-cluster-init': { condition: 'service_completed_successfully' },
      });
    }
  });
});

/** The compose file's services, and the `scale` profile's by what they run. */
interface Service {
  image?: string;
  build?: string;
  profiles?: string[];
  command?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const compose = load(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const services = compose.services;
const scale = Object.entries(services).filter(([, s]) => s.profiles?.includes('scale'));
const commandOf = (s: Service) => (Array.isArray(s.command) ? s.command.join(' ') : (s.command ?? ''));
const named = (pattern: RegExp) => scale.filter(([, s]) => pattern.test(commandOf(s)));
const apis = named(/node dist\/src\/main\.js/);
const workers = named(/node dist\/src\/worker\.js/);
const masters = named(/--cluster-enabled yes/);

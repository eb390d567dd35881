import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPLAINED, sectionOf } from './explained-deviations';
import { SpecConformance } from './spec-conformance';

const ROOT = join(__dirname, '..', '..');

describe('openapi/openapi.yaml holds to the spec’s tables (test/contract/spec-tables.ts)', () => {
  const document = load(readFileSync(join(ROOT, 'openapi', 'openapi.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
  const decisions = readFileSync(join(ROOT, 'docs', 'decisions.md'), 'utf8');
  const differences = new SpecConformance(document).differences();
  const explained = EXPLAINED.flatMap((entry) => entry.differences);

  it('differs from them only where docs/decisions.md explains why', () => {
    expect(differences.filter((d) => !explained.includes(d))).toEqual([]);
  });

  it('lists no explained deviation the document no longer shows', () => {
    expect(explained.filter((d) => !differences.includes(d))).toEqual([]);
  });

  it.each(EXPLAINED.map((entry) => [entry.section, entry] as const))(
    'docs/decisions.md, "%s", explains its deviations by name',
    (_section, entry) => {
      const text = sectionOf(decisions, entry.section);
      expect(text).toBeDefined();
      expect(entry.names.filter((name) => !text!.includes(`\`${name}`))).toEqual([]);
    },
  );

  it('catches what the tables forbid (a check that cannot fail would prove nothing)', () => {
    const broken = JSON.parse(JSON.stringify(document)) as {
      components: {
        schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required?: string[] }>;
      };
      paths: Record<
        string,
        Record<string, { parameters: Array<{ name: string; schema: Record<string, unknown> }> }>
      >;
    };
    const schemas = broken.components.schemas;
    schemas.BondAttributesDto.properties.settlement_period = { type: 'number', example: 1 };
    delete schemas.ExecutionDto.properties.livemode;
    schemas.WebhookSinkDto.properties.created = { type: 'string', format: 'date-time' };
    schemas.AssetDto.properties.status.enum = ['active'];
    delete schemas.AccountOrderDto.properties.reject_reason;
    const limit = broken.paths['/legacy/v1/assets/search'].get.parameters.find((p) => p.name === 'limit')!;
    limit.schema.default = 50;
    const found = new SpecConformance(broken).differences();
    expect(found).toEqual(
      expect.arrayContaining([
        'BondAttributesDto.settlement_period: type number (spec: integer)',
        'ExecutionDto.livemode: missing',
        'WebhookSinkDto.created: type string/date-time (spec: integer)',
        'AssetDto.status: enumeration lacks inactive',
        'AccountOrderDto.reject_reason: missing',
        'GET /legacy/v1/assets/search query limit: default 50 (spec: 10)',
      ]),
    );
  });
});

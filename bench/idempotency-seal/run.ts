import { SecretBox } from 'src/core/crypto/secret-box';

/**
 * What sealing every stored idempotent response costs (IdempotencyService.seal / unseal): CPU per
 * stored body with AES-256-GCM against the plain JSON text stored before, on the largest body a
 * route answers today (an investor) and on a new API key. Rounds alternate so noise hits both.
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const investor = {
  id: 'inv_4Qm1bX9kLr2TzP0aVn7c8w',
  object: 'investor',
  created: 1763800000,
  livemode: false,
  metadata: { partner_user_id: 'u_1029' },
  status: 'submitted',
  account_id: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b',
  account_number: '7389090353',
  identity: {
    first_name: 'Ada',
    middle_name: null,
    last_name: 'Obi',
    date_of_birth: '1990-04-12',
    country_of_citizenship: 'US',
    country_of_birth: 'NG',
    party_type: 'natural_person',
    tax_id_type: 'USA_SSN',
    tax_id: '*****6789',
    country_of_tax_residence: 'US',
    funding_source: ['employment_income'],
  },
  contact: {
    email_address: 'ada.obi@example.com',
    phone_number: '+14155550123',
    address: {
      street: ['20 N San Mateo Dr'],
      unit: 'Apt 4',
      city: 'San Mateo',
      state: 'CA',
      postal_code: '94401',
      country: 'US',
    },
  },
  disclosures: {
    is_control_person: false,
    is_affiliated_exchange_or_finra: false,
    is_affiliated_exchange_or_iiroc: null,
    is_politically_exposed: false,
    immediate_family_exposed: false,
    is_discretionary: null,
  },
  agreements: [
    {
      agreement: 'customer_agreement',
      signed_at: '2025-11-22T10:00:00.000Z',
      ip_address: '203.0.113.7',
      revision: '2025-06',
    },
  ],
  currency: 'USD',
  trading_type: 'cash',
  enabled_assets: ['us_equity', 'etf'],
  kyc: { status: 'not_submitted', missing: ['identity_document', 'w8ben'] },
};
const apiKey = {
  id: 'apk_8hN2cQ5vT1mZ0bW7xLr4yA',
  object: 'api_key',
  created: 1763800000,
  livemode: false,
  account_id: 'inv_4Qm1bX9kLr2TzP0aVn7c8w',
  name: 'investor app',
  environment: 'TEST',
  status: 'active',
  public_key: 'pk_test_3m9QbV0aT4mW1xRy7cN2p',
  expires_at: null,
  metadata: {},
  secret: 'sk_test_kL2mN8pQ4rS6tU0vW3xY5zA7bC9dE1fG3hJ5kL7mN9p',
};

const box = new SecretBox({ purpose: 'idempotent-responses', keyMaterial: 'b'.repeat(40), keyName: 'BENCH' });

/** CPU microseconds per call of `work`, over ITERATIONS calls. */
function cpuMicros(work: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) {
    work();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ITERATIONS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const [name, body] of [
  ['investor', investor],
  ['api key', apiKey],
] as const) {
  const sealedForm = box.seal(JSON.stringify(body));
  const plain: number[] = [];
  const sealed: number[] = [];
  const opened: number[] = [];
  const parsed: number[] = [];
  cpuMicros(() => box.seal(JSON.stringify(body))); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(cpuMicros(() => JSON.stringify(body)));
    sealed.push(cpuMicros(() => box.seal(JSON.stringify(body))));
    parsed.push(cpuMicros(() => JSON.parse(JSON.stringify(body))));
    opened.push(cpuMicros(() => JSON.parse(box.open(sealedForm))));
  }
  const [p, s, r, o] = [plain, sealed, parsed, opened].map(median);
  process.stdout.write(
    `${name} (${JSON.stringify(body).length} bytes JSON): store ${p.toFixed(1)} µs plain, ${s.toFixed(1)} µs sealed ` +
      `(+${(s - p).toFixed(1)} µs); replay ${r.toFixed(1)} µs plain, ${o.toFixed(1)} µs sealed ` +
      `(+${(o - r).toFixed(1)} µs); stored size ${JSON.stringify(body).length} → ${sealedForm.length} bytes\n`,
  );
}

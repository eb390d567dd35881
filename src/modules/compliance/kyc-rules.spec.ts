import { missingRequirements } from 'src/modules/compliance/kyc-requirements';
import { sandboxKycDecision } from 'src/modules/compliance/sandbox-kyc-review';
import { currentDisclosure } from 'src/modules/disclosures/disclosure-catalog';

describe('KYC requirements', () => {
  const customer = {
    agreement: 'customer_agreement',
    revision: currentDisclosure('customer_agreement')!.revision,
  };
  const base = { country_of_tax_residence: 'US', has_tax_id: true, documents: [], agreements: [customer] };

  it('needs an identity document that is not rejected', () => {
    expect(missingRequirements(base)).toEqual(['identity_document']);
    expect(missingRequirements({ ...base, documents: [{ type: 'passport', status: 'pending' }] })).toEqual(
      [],
    );
    expect(missingRequirements({ ...base, documents: [{ type: 'id_front', status: 'approved' }] })).toEqual(
      [],
    );
    expect(missingRequirements({ ...base, documents: [{ type: 'passport', status: 'rejected' }] })).toEqual([
      'identity_document',
    ]);
    expect(missingRequirements({ ...base, documents: [{ type: 'id_back', status: 'approved' }] })).toEqual([
      'identity_document',
    ]);
  });

  it('needs a W-8BEN outside the United States, a tax id, and the current customer agreement', () => {
    const passport = [{ type: 'passport' as const, status: 'pending' as const }];
    expect(missingRequirements({ ...base, documents: passport, country_of_tax_residence: 'NG' })).toEqual([
      'w8ben',
    ]);
    expect(missingRequirements({ ...base, documents: passport, has_tax_id: false })).toEqual(['tax_id']);
    expect(
      missingRequirements({
        ...base,
        documents: passport,
        agreements: [{ ...customer, revision: '1999-01' }],
      }),
    ).toEqual(['customer_agreement']);
  });
});

describe('sandbox KYC decision', () => {
  const person = { last_name: 'Obi', is_politically_exposed: false };

  it('approves by default, rejects on the magic last name or a rejected document', () => {
    expect(sandboxKycDecision(person, [{ status: 'approved' }])).toEqual({ outcome: 'approved' });
    expect(sandboxKycDecision({ ...person, last_name: 'reject ' }, [])).toEqual({
      outcome: 'rejected',
      reasons: ['identity_not_verified'],
    });
    expect(sandboxKycDecision(person, [{ status: 'approved' }, { status: 'rejected' }])).toEqual({
      outcome: 'rejected',
      reasons: ['document_rejected'],
    });
  });

  it('leaves a politically exposed person in manual review', () => {
    expect(sandboxKycDecision({ ...person, is_politically_exposed: true }, [])).toEqual({
      outcome: 'manual_review',
    });
  });
});

import type { DocumentStatus, DocumentType } from 'src/modules/documents/entities/document.entity';
import {
  AGREEMENTS_REQUIRED_FOR_ACCOUNT,
  currentDisclosure,
} from 'src/modules/disclosures/disclosure-catalog';

/** What an application can lack before KYC can be submitted. */
export const KYC_REQUIREMENTS = ['identity_document', 'w8ben', 'tax_id', 'customer_agreement'] as const;
export type KycRequirement = (typeof KYC_REQUIREMENTS)[number];

const IDENTITY_DOCUMENTS: readonly DocumentType[] = ['id_front', 'passport'];

export interface RequirementInput {
  country_of_tax_residence: string;
  has_tax_id: boolean;
  documents: ReadonlyArray<{ type: DocumentType; status: DocumentStatus }>;
  agreements: ReadonlyArray<{ agreement: string; revision: string }>;
}

/**
 * The KYC requirements not yet met, in a fixed order:
 * - `identity_document`: an `id_front` or `passport` document that is not rejected;
 * - `w8ben`: a W-8BEN form (not rejected) for a tax residence outside the United States;
 * - `tax_id`: a tax id (only `NOT_SPECIFIED` can lack one);
 * - each disclosure required for an account (`customer_agreement`) at its current revision.
 */
export function missingRequirements(input: RequirementInput): string[] {
  const usable = (types: readonly DocumentType[]) =>
    input.documents.some((d) => types.includes(d.type) && d.status !== 'rejected');
  const missing: string[] = [];
  if (!usable(IDENTITY_DOCUMENTS)) {
    missing.push('identity_document');
  }
  if (input.country_of_tax_residence !== 'US' && !usable(['w8ben'])) {
    missing.push('w8ben');
  }
  if (!input.has_tax_id) {
    missing.push('tax_id');
  }
  for (const agreement of AGREEMENTS_REQUIRED_FOR_ACCOUNT) {
    const revision = currentDisclosure(agreement)?.revision;
    if (!input.agreements.some((a) => a.agreement === agreement && a.revision === revision)) {
      missing.push(agreement);
    }
  }
  return missing;
}
